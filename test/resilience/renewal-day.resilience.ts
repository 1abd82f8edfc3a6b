import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '@/db/client';
import { seedPlans } from '@/bench/seed-plans';
import type { WompiKeys } from '@/lib/processors/wompi/processor';
import { startWompiDouble, testWompiKeys, type WompiDouble } from '@/test/wompi-double';
import { eventually, scratchDatabase } from './harness';

// A renewal day shared by three instances, one of them killed (kill -9) mid-sweep (issue 41,
// docs/performance.md#the-days-bursts): 2,000 plans of 4 merchants due at once, each charge answered by the
// Wompi double after 100 ms. Each instance is a process running the deployment's sweep
// (bench/renewal-day-worker.ts). What the dead one had claimed waits out its lease and is swept
// again; what it had sent is found by the settler. Afterwards every plan has exactly one approved
// renewal, and Wompi received exactly one charge per plan.

const MERCHANTS = 4;
const PER_MERCHANT = 500;
const PLANS = MERCHANTS * PER_MERCHANT;
const LEASE_SECONDS = 5;

let db: Awaited<ReturnType<typeof scratchDatabase>>;
let double: WompiDouble;
const keys: Record<string, WompiKeys> = {};
const keysFile = path.join(os.tmpdir(), `servicepay-renewal-day-${process.pid}.json`);
const workers: ChildProcess[] = [];

beforeAll(async () => {
  db = await scratchDatabase();
  double = await startWompiDouble({ latencyMs: 100, recordRequests: false, finalOnCreate: true });
  const database = await openPostgres(db.url, { max: 2 });
  for (let m = 0; m < MERCHANTS; m++) {
    const merchantKeys = testWompiKeys();
    double.addMerchant(merchantKeys);
    const first = double.addSources(merchantKeys.publicKey, PER_MERCHANT);
    const { merchantId } = await seedPlans(database.db, { count: PER_MERCHANT, due: PER_MERCHANT, dueAt: new Date(), prefix: `kill${m}`, wompiSourceFrom: first });
    keys[merchantId] = merchantKeys;
  }
  await database.close();
  fs.writeFileSync(keysFile, JSON.stringify(keys));
});

afterAll(async () => {
  for (const worker of workers) worker.kill('SIGKILL');
  fs.rmSync(keysFile, { force: true });
  await double?.close();
  await db?.drop();
});

/** An instance: says READY once started, sweeps on a line on stdin, exits when done. */
function startInstance(extra: Record<string, string> = {}): { child: ChildProcess; ready: Promise<void>; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('bench', 'renewal-day-worker.ts')], {
    env: { ...process.env, DATABASE_URL: db.url, BENCH_DB_URL: db.url, BENCH_WOMPI_URL: double.url, BENCH_NOW: String(Date.now()), BENCH_KEYS_FILE: keysFile, SWEEP_LEASE_SECONDS: String(LEASE_SECONDS), ...extra },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  workers.push(child);
  const ready = new Promise<void>((resolve) => readline.createInterface({ input: child.stdout! }).on('line', (line) => line === 'READY' && resolve()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, ready, exited };
}

async function renewals() {
  const [row] = await db.sql<{ approved: number; pending: number; plans: number; twice: number }[]>`
    with per_plan as (
      select plan_id, count(*) filter (where status = 'APPROVED') as approved from transactions where kind = 'RENEWAL' group by plan_id
    )
    select (select count(*)::int from transactions where kind = 'RENEWAL' and status = 'APPROVED') as approved,
      (select count(*)::int from transactions where kind = 'RENEWAL' and status = 'PENDING') as pending,
      (select count(*)::int from per_plan where approved = 1) as plans,
      (select count(*)::int from per_plan where approved > 1) as twice`;
  return row!;
}

describe('a renewal day on three instances, one killed mid-sweep', () => {
  it('charges every plan exactly once', async () => {
    const instances = [startInstance(), startInstance(), startInstance()];
    await Promise.all(instances.map((i) => i.ready));
    for (const instance of instances) instance.child.stdin!.write('go\n');

    // The kill comes once a tenth of the day is charged: the victim holds claims and charges in flight.
    await eventually(renewals, (r) => r.approved >= PLANS / 10, 120_000);
    const victim = instances[1]!;
    victim.child.kill('SIGKILL');
    expect(await victim.exited).toBeNull();
    expect(await instances[0]!.exited).toBe(0);
    expect(await instances[2]!.exited).toBe(0);

    // The next passes, as a surviving instance's timers run them once the dead one's leases have
    // run out: the settler (whose orphan check waits two minutes), then the sweep.
    await new Promise((resolve) => setTimeout(resolve, LEASE_SECONDS * 1000 + 500));
    for (let pass = 0; pass < 3 && (await renewals()).plans < PLANS; pass++) {
      const next = startInstance({ BENCH_NOW: String(Date.now() + 10 * 60_000), BENCH_SETTLE: '1' });
      await next.ready;
      next.child.stdin!.write('go\n');
      expect(await next.exited).toBe(0);
    }

    const after = await renewals();
    expect(after).toEqual({ approved: PLANS, pending: 0, plans: PLANS, twice: 0 });
    const charged = new Map<number, number>();
    for (const t of double.transactions.values()) if (t.status === 'APPROVED') charged.set(Number(t.payment_source_id), (charged.get(Number(t.payment_source_id)) ?? 0) + 1);
    expect(charged.size).toBe(PLANS);
    expect([...charged.values()].every((n) => n === 1)).toBe(true);
  });
});
