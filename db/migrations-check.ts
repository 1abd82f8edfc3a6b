import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { type Database, MIGRATIONS_FOLDER, queryRows } from './client';

/** Fails with a clear message when a PostgreSQL database lacks migrations this build ships. */
export async function assertMigrated(database: Database): Promise<void> {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  let applied = 0;
  try {
    const [row] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
    applied = row?.n ?? 0;
  } catch {
    applied = 0;
  }
  if (applied < journal.entries.length) {
    throw new Error(
      `The database has ${applied} of ${journal.entries.length} migrations applied. Run \`npm run db:migrate\` first.`,
    );
  }
}
