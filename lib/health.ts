import { z } from 'zod';

// The health check's reply (docs/operations.md#health), used by app/api/health and the OpenAPI
// document alike.

export const healthSchema = z
  .object({ status: z.enum(['ok', 'error']), db: z.enum(['ok', 'unreachable']) })
  .meta({ id: 'Health' });

export type Health = z.infer<typeof healthSchema>;

export const HEALTHY: Health = healthSchema.parse({ status: 'ok', db: 'ok' });
export const DATABASE_UNREACHABLE: Health = healthSchema.parse({ status: 'error', db: 'unreachable' });
