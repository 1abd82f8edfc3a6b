// GET /api/health (docs/operations.md#health), declared for its route and the OpenAPI document
import { operation } from '@/lib/api/operation';
import { DATABASE_UNREACHABLE, HEALTHY, healthSchema } from '@/lib/health';

export const GET = operation({
  method: 'GET',
  path: '/api/health',
  operationId: 'getHealth',
  summary: 'Health check',
  tag: 'Service',
  auth: 'none',
  description: 'Whether the service and its database answer. Never cached.',
  replies: {
    200: { description: 'The service and its database answer', headers: false, body: { schema: healthSchema, example: HEALTHY } },
    503: { description: 'The database does not answer', headers: false, body: { schema: healthSchema, example: DATABASE_UNREACHABLE } },
  },
  errors: [],
  sample: { path: '/api/health' },
});
