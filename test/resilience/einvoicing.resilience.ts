import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FactusAccount, factusDoubleAccount, type FactusDouble, startFactusDouble } from '@/test/factus-double';
import { factusSettings } from '@/test/invoices';
import { type Receiver, startReceiver } from '@/test/webhook-receiver';
import { type AppServer, api, createLinks, createMerchant, eventually, operator, pay, scratchDatabase, startApp } from './harness';

// Electronic invoices under crashes and a failing provider (issue 39, docs/einvoicing.md#issuing):
// three `next start` instances on one PostgreSQL database issue through the Factus double, which
// answers the first three documents with 503 and never answers the fourth; one instance is killed
// (kill -9) mid-burst of approved charges, holding claims and charges in flight. Afterwards every
// approved charge has exactly one ISSUED invoice, and the provider holds exactly one document for it.

const CHARGES = 45;
const CALL_TIMEOUT_MS = 3000;
const CLIENT = `10.39.${process.pid % 250}`;

let db: Awaited<ReturnType<typeof scratchDatabase>>;
let factus: FactusDouble;
let account: FactusAccount;
let receiver: Receiver;
const instances: AppServer[] = [];

beforeAll(async () => {
  db = await scratchDatabase();
  receiver = await startReceiver();
  // Each document waits a little at the provider, so the kill finds some in flight.
  factus = await startFactusDouble({ latencyMs: 300 });
  account = factusDoubleAccount(factus);
  const env = {
    DATABASE_URL: db.url,
    FACTUS_API_URL: factus.url,
    // A hang costs one deadline, a dead instance's claims lapse after three.
    EINVOICE_CALL_TIMEOUT_MS: String(CALL_TIMEOUT_MS),
    SECRETS_ENCRYPTION_KEY: 'e1c0'.repeat(16),
  };
  instances.push(...(await Promise.all([1, 2, 3].map((n) => startApp(env, `einvoice-${n}`)))));
});
afterAll(async () => {
  await Promise.all(instances.map((i) => i.stop()));
  await factus?.close();
  await receiver?.close();
  await db?.drop();
});

const on = (i: number) => instances[i % instances.length]!.url;

async function invoiceStates() {
  return db.sql<{ status: string; n: number }[]>`select status, count(*)::int as n from invoices group by 1 order by 1`;
}

describe('electronic invoices on three instances, one killed mid-burst', () => {
  it('issues exactly one invoice per approved charge despite 503s, a hang and a kill -9', async () => {
    const merchant = await createMerchant(on(0), receiver.url);
    const turnedOn = await api(on(0), `/admin/merchants/${merchant.merchantId}`, { method: 'PATCH', auth: operator, body: { eInvoicing: factusSettings(account) } });
    expect(turnedOn.status).toBe(200);
    expect(turnedOn.json.eInvoicing).toEqual({ provider: 'factus', iva: 19 });
    const links = await createLinks(on(0), merchant.auth, CHARGES, 'einvoice');
    factus.fail({ kind: 'status', status: 503, times: 3, path: '/v2/bills/validate' }, { kind: 'hang', path: '/v2/bills/validate' });

    const victim = instances[1]!;
    const payments = links.map((link, i) => pay(on(i), link.token, '4242424242424242', `${CLIENT}.${i}`).catch(() => undefined));
    await eventually(async () => (await db.sql<{ n: number }[]>`select count(*)::int as n from invoices`)[0]!.n, (n) => n >= CHARGES / 3, 60_000);
    await victim.crash();
    const atKill = await db.sql<{ claimed: number; pending: number }[]>`
      select count(*) filter (where claim is not null)::int as claimed, count(*) filter (where status = 'PENDING')::int as pending from invoices`;
    await Promise.all(payments);
    console.info('at the kill', atKill[0], await invoiceStates());

    // Charges the dead instance left PENDING are settled by a survivor's settler; the test clock
    // moves it past its two-minute wait for a charge whose processor call never answered.
    await sleep(1000);
    const settled = await api(on(0), '/admin/billing/run', { auth: operator, body: { now: Date.now() + 3 * 60_000 } });
    expect(settled.status).toBe(200);
    expect(await db.sql`select id from transactions where status = 'PENDING'`).toEqual([]);

    // The survivors' sweeps take over the dead one's claims once their lease lapses, and retry the
    // 503s and the hang after their backoff.
    const approved = await db.sql<{ id: string }[]>`select id from transactions where status = 'APPROVED' order by id collate "C"`;
    expect(approved.length).toBeGreaterThan(CHARGES / 3);
    const final = await eventually(invoiceStates, (rows) => rows.length === 1 && rows[0]!.status === 'ISSUED' && rows[0]!.n === approved.length, 75_000);
    expect(final).toEqual([{ status: 'ISSUED', n: approved.length }]);

    const invoices = await db.sql<{ transaction_id: string; kind: string; number: string; attempts: number }[]>`
      select transaction_id, kind, number, attempts from invoices order by transaction_id collate "C"`;
    expect(invoices.map((i) => i.transaction_id)).toEqual(approved.map((t) => t.id));
    expect(invoices.every((i) => i.kind === 'INVOICE')).toBe(true);
    expect(invoices.filter((i) => i.attempts > 1).length).toBeGreaterThanOrEqual(4);

    // The provider: the faults were met, and it holds one validated document per charge, the one we kept.
    expect(factus.requests.filter((r) => r.path === '/v2/bills/validate' && r.status === 503)).toHaveLength(3);
    expect(factus.requests.filter((r) => r.path === '/v2/bills/validate' && r.status === 0)).toHaveLength(1);
    const documents = factus.documents.filter((d) => d.account.clientId === account.clientId);
    expect(documents.map((d) => d.reference).sort()).toEqual(approved.map((t) => t.id));
    expect(documents.every((d) => d.kind === 'INVOICE' && d.validated)).toBe(true);
    const numberOf = new Map(documents.map((d) => [d.reference, d.number]));
    expect(invoices.map((i) => i.number)).toEqual(invoices.map((i) => numberOf.get(i.transaction_id)));
  });
});
