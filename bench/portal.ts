// `npm run bench:portal`: the portal's Overview and list queries at scale (issues 16 and 41). On the
// real PostgreSQL, one merchant with BENCH_PORTAL_PLANS plans (1,000,000 unless set) and three
// transactions a plan over 90 days (plus another merchant's rows, which every query must skip):
// the time of getOverview (all its aggregates, as the page reads them) for 30 and 90 days, and of
// the plan searches. Aim: under 200 ms.
// Writes the "Portal" section of docs/benchmarks.md. Medians of ROUNDS rounds after a warm-up.
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { type Db, openPostgres } from '@/db/client';
import { listPlans, listTransactions } from '@/db/queries/activity';
import { createMerchant } from '@/lib/merchants/merchants';
import { getOverview } from '@/lib/portal/overview';
import { median, writeSection } from './report';
import { createScratchDatabase } from './setup';

const PLANS = Number(process.env.BENCH_PORTAL_PLANS ?? 1_000_000);
const TRANSACTIONS = 3 * PLANS;
const ROUNDS = 7;
const AIM_MS = 200;
const HEADING = '## Portal (npm run bench:portal)';
const NOW = new Date('2027-06-15T15:00:00.000Z');

/** `plans` plans and `txns` transactions of a new merchant, in a few statements. */
async function seed(db: Db, prefix: string, plans: number, txns: number) {
  const merchant = await createMerchant(db, { name: `Bench ${prefix}` });
  const m = merchant.merchantId;
  await db.execute(sql`insert into customers (id, merchant_id, email, phone)
    select 'cus_' || ${prefix} || lpad(i::text, ${24 - prefix.length}, '0'), ${m}, 'client' || i || '@example.com', '+573001234567'
    from generate_series(1, ${plans / 10}) as i`);
  // Plans over the last 120 days: mostly ACTIVE RECURRING, some SINGLE, PAUSED, CANCELLED, PENDING,
  // and one in 50 with a failed renewal awaiting its retry.
  await db.execute(sql`
    insert into subscription_plans (id, merchant_id, customer_id, external_reference, description, amount, modality, interval_unit, interval_count,
      status, next_charge_date, billing_anchor_day, renewal_failures, checkout_token, token_expires_at,
      customer_phone, customer_email, created_at, updated_at)
    select 'sub_' || ${prefix} || lpad(i::text, ${24 - prefix.length}, '0'), ${m},
      'cus_' || ${prefix} || lpad((i % ${plans / 10} + 1)::text, ${24 - prefix.length}, '0'), 'bench-' || i,
      'Plan mensual', 100000 + (i % 20) * 5000, case when i % 10 = 9 then 'SINGLE' else 'RECURRING' end,
      case when i % 10 = 9 then null else 'month' end, case when i % 10 = 9 then null else 1 end,
      case when i % 10 = 0 then 'PAUSED' when i % 10 = 1 then 'CANCELLED' when i % 10 = 2 then 'PENDING_ACTIVATION' else 'ACTIVE' end,
      ${NOW.toISOString()}::timestamptz + ((i::bigint * 2592000 / ${plans}) || ' seconds')::interval, 15,
      case when i % 50 = 3 then 1 else 0 end, ${prefix} || i, now() + interval '1 day',
      '+573001234567', 'client' || (i % ${plans / 10} + 1) || '@example.com',
      ${NOW.toISOString()}::timestamptz - ((i::bigint * 10368000 / ${plans}) || ' seconds')::interval,
      ${NOW.toISOString()}::timestamptz - ((i::bigint * 5184000 / ${plans}) || ' seconds')::interval
    from generate_series(1, ${plans}) as i`);
  await db.execute(sql`
    insert into transactions (id, plan_id, merchant_id, kind, status, amount, charge_date, gateway_transaction_id)
    select 'txn_' || ${prefix} || lpad(i::text, ${24 - prefix.length}, '0'),
      'sub_' || ${prefix} || lpad((i % ${plans} + 1)::text, ${24 - prefix.length}, '0'), ${m},
      case when i <= ${plans} then 'INITIAL' else 'RENEWAL' end,
      case when i % 10 = 0 then 'DECLINED' when i % 25 = 1 then 'ERROR' else 'APPROVED' end,
      100000 + (i % 20) * 5000,
      ${NOW.toISOString()}::timestamptz - ((i::bigint * 7776000 / ${txns}) || ' seconds')::interval, 'gw_' || ${prefix} || i
    from generate_series(1, ${txns}) as i`);
  return m;
}

async function timed(fn: () => Promise<unknown>): Promise<number[]> {
  await fn(); // warm-up
  const runs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.hrtime.bigint();
    await fn();
    runs.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return runs;
}

async function main() {
  const started = Date.now();
  const load = os.loadavg()[0]!;
  const scratch = await createScratchDatabase();
  const database = await openPostgres(scratch.url);
  try {
    const { db } = database;
    const merchantId = await seed(db, 'pa', PLANS, TRANSACTIONS);
    await seed(db, 'pb', 10_000, 30_000);
    // As autovacuum leaves a table: statistics and visibility map (index-only scans) up to date.
    await db.execute(sql`vacuum analyze`);
    const cases: [string, () => Promise<unknown>][] = [
      ['Overview, 30 days (getOverview: every figure, chart and list of the page)', () => getOverview(db, merchantId, { now: NOW, days: 30 })],
      ['Overview, 90 days', () => getOverview(db, merchantId, { now: NOW, days: 90 })],
      ['Plans: first page, no filter', () => listPlans(db, merchantId, {}, 20)],
      ['Plans: search by customer e-mail', () => listPlans(db, merchantId, { search: 'client77@example.com' }, 20)],
      ['Plans: search by externalReference', () => listPlans(db, merchantId, { search: 'bench-77777' }, 20)],
      ['Plans: status CANCELLED, first page', () => listPlans(db, merchantId, { status: 'CANCELLED' }, 20)],
      ['Transactions: first page, status DECLINED', () => listTransactions(db, merchantId, { status: 'DECLINED' }, 20)],
    ];
    const results: { name: string; runs: number[] }[] = [];
    for (const [name, fn] of cases) results.push({ name, runs: await timed(fn) });
    const overview = await getOverview(db, merchantId, { now: NOW, days: 90 });
    const cpu = os.cpus();
    const worst = Math.max(...results.map((r) => median(r.runs)));
    const body = [
      `Taken ${new Date().toISOString().slice(0, 10)} by \`npm run bench:portal\`, ${Math.round((Date.now() - started) / 1000)} s in all; ` +
        `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, load average ${load.toFixed(1)} at the start, Node ${process.version}, PostgreSQL ${scratch.serverVersion}. ` +
        `Medians of ${ROUNDS} rounds after one warm-up, measured in-process around the query functions the pages call (db/queries/overview.ts, db/queries/activity.ts) over postgres.js.`,
      '',
      `One merchant with ${PLANS.toLocaleString('en-US')} plans (70 % ACTIVE, ${overview.atRisk.toLocaleString('en-US')} of them with a failed renewal) and ${TRANSACTIONS.toLocaleString('en-US')} transactions spread over the last 90 days; ` +
        `a second merchant with 10,000 plans and 30,000 transactions beside it; analyzed. MRR came to ${(overview.mrr / 100).toLocaleString('en-US')} pesos over ${overview.activePlans.toLocaleString('en-US')} ACTIVE plans.`,
      '',
      '| query | median | rounds (ms) |',
      '|---|---:|---|',
      ...results.map((r) => `| ${r.name} | **${median(r.runs).toFixed(1)} ms** | ${r.runs.map((ms) => ms.toFixed(1)).join(', ')} |`),
      '',
      `Aim: every query under ${AIM_MS} ms with ${PLANS.toLocaleString('en-US')} plans: ${worst < AIM_MS ? `met (slowest median ${worst.toFixed(1)} ms)` : `**missed** (slowest median ${worst.toFixed(1)} ms)`}.`,
    ].join('\n');
    writeSection(body, HEADING);
    console.log(body);
    if (worst >= AIM_MS) process.exitCode = 1;
  } finally {
    await database.close();
    await scratch.drop();
  }
}

void main();
