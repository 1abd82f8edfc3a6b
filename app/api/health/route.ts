// GET /api/health (docs/operations.md#health)
import { getDb } from '@/db/client';
import { pingDatabase } from '@/db/queries/health';
import { jsonResponse } from '@/lib/api/handler';
import { route } from '@/lib/api/route';
import { DATABASE_UNREACHABLE, HEALTHY } from '@/lib/health';
import { errorFields, log } from '@/lib/log';
import * as op from './operation';

const TIMEOUT_MS = 2000;

export const GET = route(op.GET, async () => {
  try {
    const db = await getDb();
    await Promise.race([
      pingDatabase(db),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer in ${TIMEOUT_MS} ms`)), TIMEOUT_MS).unref()),
    ]);
    return jsonResponse(HEALTHY);
  } catch (error) {
    log.error('health check: database unreachable', errorFields(error));
    return jsonResponse(DATABASE_UNREACHABLE, { status: 503 });
  }
});
