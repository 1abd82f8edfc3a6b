import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import { type PgDatabase, PgDialect, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { env } from '@/lib/env';
import { lockDataDir } from './embedded-lock';
import * as schema from './schema';

/** The database, whichever driver is behind it; a transaction (`tx`) has the same type. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'postgres' | 'pglite';
  close(): Promise<void>;
  /**
   * LISTENs on `channel`: `onNotify` gets each payload, `onListen` runs each time the listen is in
   * place (again after a lost connection, when what was sent meanwhile is gone). Resolves once
   * listening; the function it resolves to stops.
   */
  listen(channel: string, onNotify: (payload: string) => void, onListen: () => void): Promise<() => Promise<void>>;
  /** PGlite only: a gzip tarball of the data directory, to clone the database (tests). */
  dump?: () => Promise<Blob>;
}

export const MIGRATIONS_FOLDER = path.join(process.cwd(), 'db', 'migrations');

/** postgres.js against a server. Start-up fails with a clear message if it does not answer. */
export async function openPostgres(url: string, options: { max?: number } = {}): Promise<Database> {
  const client = postgres(url, { max: options.max ?? 10, onnotice: () => {}, connect_timeout: 5 });
  try {
    await client`select 1`;
  } catch (error) {
    await client.end({ timeout: 1 }).catch(() => {});
    const where = new URL(url).host || 'the server';
    throw new Error(`DATABASE_URL does not answer (${where}): ${(error as Error).message}`, { cause: error });
  }
  return {
    db: drizzlePostgres({ client, schema }) as unknown as Db,
    kind: 'postgres',
    close: () => client.end(),
    listen: async (channel, onNotify, onListen) => {
      // postgres.js listens on a connection of its own and listens again after reconnecting.
      const { unlisten } = await client.listen(channel, onNotify, onListen);
      return unlisten;
    },
  };
}

/** PGlite on a data directory (locked for this process) or in memory, migrated. */
export async function openPglite(options: { dataDir?: string; loadDataDir?: Blob } = {}): Promise<Database> {
  const release = options.dataDir ? lockDataDir(options.dataDir) : () => {};
  try {
    const client = await PGlite.create(options.dataDir ? path.join(options.dataDir, 'pgdata') : undefined, {
      loadDataDir: options.loadDataDir,
    });
    const db = drizzlePglite({ client, schema }) as unknown as Db;
    await migratePglite(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
    return {
      db,
      kind: 'pglite',
      dump: () => client.dumpDataDir('gzip'),
      listen: async (channel, onNotify, onListen) => {
        // In process: no connection to lose, so listening starts once.
        const unlisten = await client.listen(channel, onNotify);
        onListen();
        return unlisten;
      },
      close: async () => {
        await client.close();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

export async function migratePostgresDatabase(database: Database): Promise<void> {
  await migratePostgres(database.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
}

/** Opens the database this deployment names: DATABASE_URL, else the embedded one (migrated on open). */
export function openConfiguredDatabase(): Promise<Database> {
  const { DATABASE_URL, PGLITE_DATA_DIR } = env();
  return DATABASE_URL ? openPostgres(DATABASE_URL) : openPglite({ dataDir: path.resolve(PGLITE_DATA_DIR) });
}

// One database per process, kept on globalThis so that dev-server reloads reuse it.
const holder = globalThis as typeof globalThis & { __servicepayDb?: Promise<Database> };

export function getDatabase(): Promise<Database> {
  holder.__servicepayDb ??= openConfiguredDatabase().catch((error) => {
    holder.__servicepayDb = undefined;
    throw error;
  });
  return holder.__servicepayDb;
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

/** Tests and scripts hand in the database they opened. */
export function setDatabase(database: Database): void {
  holder.__servicepayDb = Promise.resolve(database);
}

/** Runs raw SQL and returns its rows, whichever driver answers (postgres.js gives an array, PGlite `{ rows }`). */
export async function queryRows<T extends Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as T[] | { rows: T[] };
  return Array.isArray(result) ? result : result.rows;
}

/**
 * A query built once per database and reused (a drizzle prepared query): the hot paths pay the
 * query builder's cost once instead of on every request.
 */
export function preparedFor<Q>(build: (db: Db) => Q): (db: Db) => Q {
  const cache = new WeakMap<Db, Q>();
  return (db) => {
    let query = cache.get(db);
    if (!query) {
      query = build(db);
      cache.set(db, query);
    }
    return query;
  };
}

const dialect = new PgDialect();

/**
 * Performance (docs/performance.md): the prepared link insert.
 * Raw SQL as a named prepared statement, run with `.execute({ name: value })` for its
 * `sql.placeholder`s. drizzle names (prepares) only the statements of its query builders; a raw
 * statement it runs unnamed, which postgres.js sends in two round trips (a Describe to learn the
 * parameter types, then Bind and Execute), parsed and planned each time. A named one is described
 * once per connection, then runs in one round trip. In a transaction, pass the transaction.
 */
export function prepareSql(db: Db, name: string, query: SQL) {
  return db._.session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false);
}
