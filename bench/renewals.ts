// `npm run bench:renewals`: the renewal sweep at scale (issue 7). On the real PostgreSQL, the time
// to find the 10,000 due plans among 100,000 and the plan of that query (it must use the partial
// index subscription_plans_due_idx); in the embedded setup (PGlite in memory), renewals per second
// end to end: lock, PENDING transaction, sandbox charge, settlement, plan moved on, webhook event.
// Writes the "Renewals" section of docs/benchmarks.md. Medians of ROUNDS rounds.
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { type Database, type Db, openPglite, openPostgres, queryRows } from '@/db/client';
import { findDuePlans } from '@/db/queries/plans';
import { findDueRenewals } from '@/lib/billing/renewals';
import { runRenewalSweep } from '@/lib/billing/sweep';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { holdWebhookHandOffs, restoreWebhookQueue } from '@/test/webhook-queue';
import { median, writeSection } from './report';
import { seedPlans } from './seed-plans';
import { createScratchDatabase } from './setup';

const PLANS = 100_000;
const DUE = 10_000;
const ROUNDS = 5;
const EMBEDDED_RENEWALS = Number(process.env.BENCH_EMBEDDED_RENEWALS ?? 2_000);
const HEADING = '## Renewals (npm run bench:renewals)';

const NOW = new Date('2027-06-15T15:00:00.000Z');

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

/** Every due attempt, through the sweep's own paging (1,000 a page). */
async function findAll(db: Db, now: Date): Promise<number> {
  let n = 0;
  for await (const page of findDueRenewals(db, now)) n += page.length;
  return n;
}

async function findOnPostgres() {
  const scratch = await createScratchDatabase();
  let database: Database | undefined;
  try {
    database = await openPostgres(scratch.url);
    const { db } = database;
    await seedPlans(db, { count: PLANS, due: DUE, dueAt: NOW, prefix: 'pg' });
    await db.execute(sql`analyze subscription_plans`);
    const runs: number[] = [];
    let found = 0;
    await findAll(db, NOW); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      const { ms, value } = await timed(() => findAll(db, NOW));
      runs.push(ms);
      found = value;
    }
    const query = findDuePlans(db, { now: NOW, limit: 1000 }).toSQL();
    const plan = await queryRows<{ 'QUERY PLAN': string }>(
      db,
      sql.raw(`explain (analyze, costs off, timing off, summary off) ${inline(query.sql, query.params)}`),
    );
    return { found, runs, plan: plan.map((r) => r['QUERY PLAN']), version: scratch.serverVersion };
  } finally {
    await database?.close();
    await scratch.drop();
  }
}

/** The statement with its parameters written in, for EXPLAIN (they are a date and numbers). */
function inline(statement: string, params: unknown[]): string {
  return statement.replace(/\$(\d+)/g, (_, i) => {
    const value = params[Number(i) - 1];
    return typeof value === 'number' ? String(value) : `'${String(value instanceof Date ? value.toISOString() : value).replace(/'/g, "''")}'`;
  });
}

async function renewEmbedded() {
  const database = await openPglite();
  const processor = createSandboxProcessor({ pendingMs: 0 });
  // Renewals only: handing events to delivery is another bench's business.
  holdWebhookHandOffs();
  const rates: number[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const dueAt = new Date(NOW.getTime() + round * 3_600_000);
      await seedPlans(database.db, { count: EMBEDDED_RENEWALS, due: EMBEDDED_RENEWALS, dueAt, prefix: `e${round}` });
      const { ms, value } = await timed(() => runRenewalSweep(database.db, processor, { now: dueAt, concurrency: 1 }));
      if (value.approved !== EMBEDDED_RENEWALS) throw new Error(`round ${round}: ${value.approved} of ${EMBEDDED_RENEWALS} renewed`);
      rates.push((value.approved * 1000) / ms);
    }
  } finally {
    restoreWebhookQueue();
    await database.close();
  }
  return rates;
}

async function main() {
  const started = Date.now();
  const load = os.loadavg()[0]!;
  const pg = await findOnPostgres();
  const rates = await renewEmbedded();
  const usesIndex = pg.plan.some((line) => line.includes('subscription_plans_due_idx'));
  const cpu = os.cpus();
  const body = [
    `Taken ${new Date().toISOString().slice(0, 10)} by \`npm run bench:renewals\`, ${Math.round((Date.now() - started) / 1000)} s in all; ` +
      `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, load average ${load.toFixed(1)} at the start, Node ${process.version}, PostgreSQL ${pg.version}. Medians of ${ROUNDS} rounds.`,
    '',
    `**Finding the due plans (PostgreSQL).** ${PLANS.toLocaleString('en-US')} RECURRING plans, ${DUE.toLocaleString('en-US')} of them ACTIVE and due, the rest spread over the next month (a fifth of them PAUSED or CANCELLED); analyzed. ` +
      `Finding all ${pg.found.toLocaleString('en-US')} with the sweep's own paging (\`findDueRenewals\`, 1,000 a page, keyset on next charge and id) took **${median(pg.runs).toFixed(1)} ms** (rounds: ${pg.runs.map((ms) => ms.toFixed(1)).join(', ')} ms). ` +
      `The first page's plan ${usesIndex ? 'uses' : '**does not use**'} the partial index \`subscription_plans_due_idx\`:`,
    '',
    '```',
    ...pg.plan,
    '```',
    '',
    `**Renewals end to end (embedded setup, PGlite in memory).** ${EMBEDDED_RENEWALS.toLocaleString('en-US')} due plans per round swept by \`runRenewalSweep\` with the sandbox processor: per plan the lock and PENDING transaction, the charge, then in one transaction the settlement, the plan's next date and the webhook event row (delivery hand-off stubbed out). ` +
      `**${Math.round(median(rates)).toLocaleString('en-US')} renewals/s** (rounds: ${rates.map((r) => Math.round(r)).join(', ')}). PGlite runs one statement at a time, so concurrency would not help there; ${DUE.toLocaleString('en-US')} renewals take about ${Math.round(DUE / median(rates))} s.`,
  ].join('\n');
  writeSection(body, HEADING);
  console.log(body);
  if (!usesIndex) process.exitCode = 1;
}

void main();
