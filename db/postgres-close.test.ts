import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// postgres.js as patched by patches/postgres+3.4.9.patch (docs/operations.md#database-client):
// when PostgreSQL terminates a backend in the middle of a transaction, the transaction's own
// ROLLBACK was written to the closed socket from a setImmediate, a TypeError nothing could catch
// ("Cannot read properties of null (reading 'write')"), and the process died. Each build runs in
// a child process against the real PostgreSQL, so a crash is the child's exit code, not ours.

const require = createRequire(import.meta.url);
const packageDir = path.join(path.dirname(require.resolve('postgres')), '..', '..');
const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ROUNDS = 8;

/** A child's start: postgres.js from `entry`, every crash collected, a pool of `max` and a killer connection. */
const prelude = (entry: string, max: number) => `const { default: postgres } = await import(${JSON.stringify(entry)});
const crashes = [];
process.on('uncaughtException', (e) => crashes.push(String(e && e.message)));
process.on('unhandledRejection', (e) => crashes.push('unhandled: ' + String(e && e.message)));
const sql = postgres(${JSON.stringify(url)}, { max: ${max}, onnotice() {}, connect_timeout: 5 });
const killer = postgres(${JSON.stringify(url)}, { max: 1, onnotice() {} });`;

/** Kills the backend of a transaction while its query runs, ROUNDS times; prints one JSON line. */
const child = (entry: string) => `
${prelude(entry, 2)}
const codes = [];
for (let round = 0; round < ${ROUNDS}; round++) {
  let pid = null;
  const tx = sql.begin(async (t) => {
    pid = (await t\`select pg_backend_pid() as pid\`)[0].pid;
    await t\`select pg_sleep(2)\`;
  }).then(() => 'committed', (e) => e.code);
  let settled = false;
  void tx.then(() => { settled = true; });
  while (pid === null && !settled) await new Promise((r) => setTimeout(r, 20));
  if (pid === null) { codes.push('failed before it began: ' + (await tx)); continue; }
  await killer\`select pg_terminate_backend(\${pid})\`;
  codes.push(await tx);
  await new Promise((r) => setImmediate(r));
}
const after = (await sql\`select 1 as one\`)[0].one;
await sql.end({ timeout: 2 });
await killer.end({ timeout: 2 });
console.log(JSON.stringify({ crashes, codes, after }));
`;

/** The gaps, in ms, between the backend's termination and the transaction's next statement. */
const GAPS = [0, 50, 0, 50, 0, 50, 0, 50, 0, 50];

/**
 * Kills the backend of a transaction idle between two statements, then sends its next statement
 * after each gap of GAPS, on a pool of one connection, so the slot each round closes is the one the
 * next round reuses; after each round, `select 1`. Every wait is bounded (HUNG); prints one JSON line.
 */
const idleChild = (entry: string) => `
${prelude(entry, 1)}
const bounded = (p) => Promise.race([p, new Promise((r) => setTimeout(r, 2500, 'HUNG'))]);
const rounds = [];
for (const gap of ${JSON.stringify(GAPS)}) {
  const tx = await bounded(sql.begin(async (t) => {
    const pid = (await t\`select pg_backend_pid() as pid\`)[0].pid;
    await killer\`select pg_terminate_backend(\${pid})\`;
    await new Promise((r) => setTimeout(r, gap));
    await t\`select 2\`;
  }).then(() => 'committed', (e) => e.code));
  const after = await bounded(sql\`select 1 as one\`.then((r) => r[0].one, (e) => e.code));
  rounds.push({ gap, tx, after });
  if (tx === 'HUNG' || after === 'HUNG') break;
}
await sql.end({ timeout: 1 });
await killer.end({ timeout: 1 });
console.log(JSON.stringify({ crashes, rounds }));
`;

describe('postgres.js when PostgreSQL terminates a backend mid-transaction (patched)', () => {
  for (const build of ['cjs/src/index.js', 'src/index.js']) {
    it(`rejects the transaction, throws nothing uncaught, and answers the next query (${build})`, () => {
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', child(path.join(packageDir, build))], { encoding: 'utf8', timeout: 15_000 });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const report = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { crashes: string[]; codes: string[]; after: number };
      expect(report.crashes).toEqual([]);
      // The closed connection (or the backend's own error), never a commit; and each transaction
      // began: a connection that replaced a terminated one no longer inherits its old error.
      expect(report.codes).toHaveLength(ROUNDS);
      for (const code of report.codes) expect(['57P01', 'CONNECTION_CLOSED']).toContain(code);
      expect(report.after).toBe(1);
    }, 30_000);
  }

  // Two ways this hung. A statement sent after the close went to the slot, already reconnecting for
  // the next query: it rejected that query, or was written before the startup message. A statement
  // written before the client saw the close failed on the socket's error (ECONNRESET), and the
  // ROLLBACK sent before the 'close' event stayed in the connection's pipeline, never rejected: the
  // connection that replaced it gave each answer to the query before, and the next waited for ever.
  for (const build of ['cjs/src/index.js', 'src/index.js']) {
    it(`rejects a transaction idle when its backend ends, and the slot answers the next query (${build})`, () => {
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', idleChild(path.join(packageDir, build))], { encoding: 'utf8', timeout: 20_000 });
      expect(run.stderr).toBe('');
      expect(run.status, 'the child did not finish: a transaction or a query hung').toBe(0);
      const report = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { crashes: string[]; rounds: { gap: number; tx: string; after: unknown }[] };
      expect(report.crashes).toEqual([]);
      expect(report.rounds, 'every round ends, none HUNG').toEqual(GAPS.map((gap) => ({ gap, tx: 'CONNECTION_CLOSED', after: 1 })));
    }, 30_000);
  }
});
