import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// postgres.js as patched by patches/postgres+3.4.9.patch (docs/operations.md#database-client): a
// transaction's BEGIN reserves its connection once written. Unpatched, the reservation came last in
// a chain that stopped when the BEGIN filled the connection's pipeline (or the write reported
// back-pressure): the BEGIN reached PostgreSQL, the transaction failed with UNSAFE_TRANSACTION, and
// its connection went back to the pool still in a transaction (porsager/postgres#1189, #823).
// A renewal day's bursts fill pipelines; here one connection's is filled on purpose, on the real
// PostgreSQL.

const require = createRequire(import.meta.url);
const packageDir = path.join(path.dirname(require.resolve('postgres')), '..', '..');
const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

type Sql = ((strings: TemplateStringsArray, ...values: unknown[]) => { execute(): Promise<unknown> } & Promise<Record<string, unknown>[]>) & {
  begin<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  end(options: { timeout: number }): Promise<void>;
};
type Postgres = (url: string, options: Record<string, unknown>) => Sql;

// Node's build (what tsx and vitest load) and the ESM build (what Next.js bundles).
async function builds(): Promise<[string, Postgres][]> {
  return [
    ['cjs', require(path.join(packageDir, 'cjs', 'src', 'index.js')) as Postgres],
    ['esm', ((await import(pathToFileURL(path.join(packageDir, 'src', 'index.js')).href)) as { default: Postgres }).default],
  ];
}

describe('postgres.js sql.begin on a busy pool (patched)', () => {
  it('reserves the connection for a BEGIN that fills its pipeline, and the transaction commits', async () => {
    for (const [build, postgres] of await builds()) {
      // Two connections, two statements each in flight at most.
      const name = `postgres-begin-test-${build}-${process.pid}`;
      const sql = postgres(url, { max: 2, max_pipeline: 2, onnotice() {}, connection: { application_name: name } });
      const watch = postgres(url, { max: 1, onnotice() {} });
      try {
        await Promise.all([sql`select 1`, sql`select 1`]);
        // In this order, in one tick: each connection busy with a sleep, one more statement
        // pipelined on each, then the BEGIN on the first, which fills its pipeline.
        const busy = [sql`select pg_sleep(0.2)`, sql`select pg_sleep(0.2)`, sql`select 1`, sql`select 2`];
        for (const query of busy) void query.execute();
        const committed = sql.begin(async (tx) => (await tx`select txid_current() > 0 as inside`)[0]);
        await expect(committed, build).resolves.toEqual({ inside: true });
        await Promise.all(busy);
        // Both connections idle, neither left inside a transaction.
        const states = await watch`select state from pg_stat_activity where application_name = ${name} order by state`;
        expect(states.map((row) => row.state), build).toEqual(['idle', 'idle']);
      } finally {
        await sql.end({ timeout: 2 });
        await watch.end({ timeout: 2 });
      }
    }
  });
});
