// GET /api/health (docs/operations.md#health)
import { sql } from 'drizzle-orm';
import { getDb } from '@/db/client';
import { route } from '@/lib/api/route';
import { DATABASE_UNREACHABLE, HEALTHY } from '@/lib/health';
import { errorFields, log } from '@/lib/log';
import * as op from './operation';

const TIMEOUT_MS = 2000;

export const GET = route(op.GET, async () => {
  try {
    const db = await getDb();
    await Promise.race([
      db.execute(sql`select 1`),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer in ${TIMEOUT_MS} ms`)), TIMEOUT_MS).unref()),
    ]);
    return Response.json(HEALTHY, { headers: { 'Cache-Control': 'no-store' } });
  } catch (error) {
    log.error('health check: database unreachable', errorFields(error));
    return Response.json(DATABASE_UNREACHABLE, { status: 503, headers: { 'Cache-Control': 'no-store' } });
  }
});
