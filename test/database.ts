import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, beforeEach, inject } from 'vitest';
import { type Database, type Db, openPglite, openPostgres, queryRows, setDatabase } from '@/db/client';
import { handOffsSettled } from '@/lib/unit-of-work';
import { assertStoredWebhookBodiesValid } from './webhook-bodies';
import { holdWebhookHandOffs, restoreWebhookQueue } from './webhook-queue';

/**
 * A database of this test file's own, cloned from the run's migrated template, and made the
 * app's database (getDb) for the file. PostgreSQL when DATABASE_URL is set, else PGlite.
 */
export async function useTestDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  let database: Database;
  if (url) {
    const name = `sp_test_${inject('templateDatabase').slice('sp_tpl_'.length)}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name} template ${inject('templateDatabase')}`);
    const target = new URL(url);
    target.pathname = `/${name}`;
    database = await openPostgres(target.toString(), { max: 20 });
    afterAll(async () => {
      try {
        await assertStoredWebhookBodiesValid(database.db);
      } finally {
        await database.close();
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    });
  } else {
    database = await openPglite({ loadDataDir: new Blob([fs.readFileSync(inject('pgliteDump'))]) });
    afterAll(async () => {
      try {
        await assertStoredWebhookBodiesValid(database.db);
      } finally {
        await database.close();
      }
    });
  }
  setDatabase(database);
  return database;
}

/** Empties every table of the schema (between tests that need a clean slate). */
export async function truncateAll(db: Db): Promise<void> {
  // Work handed off after a commit (webhook dispatch, customer e-mails) finishes first: a
  // truncate racing an e-mail's attempt row deadlocks.
  await handOffsSettled();
  await assertStoredWebhookBodiesValid(db);
  const rows = await queryRows<{ tablename: string }>(db, sql`select tablename from pg_tables where schemaname = 'public'`);
  const names = rows.map((r) => `"${r.tablename}"`);
  if (names.length) await db.execute(sql.raw(`truncate ${names.join(', ')} restart identity cascade`));
}

/**
 * A test file's set-up for a domain that records events: a test database, and each test's new
 * events held back (holdWebhookHandOffs), the default queue put back after the file. Its `db` is
 * there once the file's beforeAll ran.
 */
export function databaseHoldingHandOffs(): { readonly db: Db } {
  let database: Database | undefined;
  beforeAll(async () => {
    database = await useTestDatabase();
  });
  beforeEach(() => holdWebhookHandOffs());
  afterAll(() => restoreWebhookQueue());
  return {
    get db() {
      if (!database) throw new Error('the test database is not ready: use it inside a test or a hook');
      return database.db;
    },
  };
}
