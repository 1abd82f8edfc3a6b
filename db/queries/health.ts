import { sql } from 'drizzle-orm';
import type { Db } from '../client';

/** The cheapest round trip to the database (GET /api/health). */
export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
