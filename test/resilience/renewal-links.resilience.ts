import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '@/test/webhook-receiver';
import { type AppServer, api, createLinks, createMerchant, operator, pay, scratchDatabase, startApp } from './harness';

// Renewal links (docs/billing.md#renewal-links) on three `next start` instances and one
// PostgreSQL: the test clock runs the sweep on all three at once and one link is issued for the
// period; then 20 payments of that link, spread over the instances at the same moment, approve once.

let db: Awaited<ReturnType<typeof scratchDatabase>>;
let receiver: Receiver;
const instances: AppServer[] = [];

beforeAll(async () => {
  db = await scratchDatabase();
  receiver = await startReceiver();
  // The sandbox's PSE bank answers at once.
  const env = { DATABASE_URL: db.url, SANDBOX_PENDING_MS: '0' };
  instances.push(...(await Promise.all([1, 2, 3].map((n) => startApp(env, `renewal-${n}`)))));
});
afterAll(async () => {
  await Promise.all(instances.map((i) => i.stop()));
  await receiver?.close();
  await db?.drop();
});

const on = (i: number) => instances[i % instances.length]!.url;
const PSE = { method: 'PSE', userType: 'PERSON', legalIdType: 'CC', legalId: '1020304050', institutionCode: '1', fullName: 'Ana Gómez', phoneNumber: '3001234567' };

describe('a renewal link on three instances', () => {
  it('is issued once by three sweeps at once, and paid once by 20 payments at once', async () => {
    const merchant = await createMerchant(on(0), receiver.url);
    const [link] = await createLinks(on(0), merchant.auth, 1, 'renewal-race');
    const first = await api(on(0), `/checkout/session/${link!.token}/payments`, { body: PSE, headers: { 'X-Forwarded-For': '10.31.0.1' } });
    expect(first.json).toMatchObject({ status: 'APPROVED' });
    const [plan] = await db.sql<{ next_charge_date: Date; renewal_collection: string }[]>`
      select next_charge_date, renewal_collection from subscription_plans where id = ${link!.planId}`;
    expect(plan!.renewal_collection).toBe('LINK');

    // Three days before the due date (reminderDays' default), the sweep of every instance at once.
    const now = plan!.next_charge_date.getTime() - 3 * 86_400_000;
    const runs = await Promise.all([0, 1, 2].map((i) => api(on(i), '/admin/billing/run', { auth: operator, body: { now } })));
    expect(runs.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(runs.reduce((n, r) => n + r.json.renewalLinks.issued, 0)).toBe(1);
    const links = await db.sql<{ id: string; token: string; status: string }[]>`select id, token, status from renewal_links where plan_id = ${link!.planId}`;
    expect(links).toHaveLength(1);
    const renewal = links[0]!;
    const emails = await db.sql<{ n: number }[]>`select count(*)::int as n from emails where plan_id = ${link!.planId} and kind = 'renewal_due'`;
    expect(emails[0]!.n).toBe(1);

    const replies = await Promise.all(Array.from({ length: 20 }, (_, k) => pay(on(k), renewal.token, '4242424242424242', `10.32.${k}.1`)));
    expect(replies.filter((r) => r.status === 200 && r.json.status === 'APPROVED')).toHaveLength(1);
    expect(replies.filter((r) => r.status !== 200).map((r) => r.status)).toEqual(replies.filter((r) => r.status !== 200).map(() => 409));
    const paid = await db.sql<{ status: string; n: number }[]>`
      select status, count(*)::int as n from transactions where renewal_link_id = ${renewal.id} group by 1`;
    expect(paid).toEqual([{ status: 'APPROVED', n: 1 }]);
    const [after] = await db.sql<{ status: string; renewal_collection: string; link_status: string }[]>`
      select p.status, p.renewal_collection, l.status as link_status from subscription_plans p join renewal_links l on l.plan_id = p.id where p.id = ${link!.planId}`;
    expect(after).toEqual({ status: 'ACTIVE', renewal_collection: 'AUTOMATIC', link_status: 'PAID' });

    // The paid link says so on every instance, and takes no payment.
    const again = await pay(on(2), renewal.token, '4242424242424242', '10.33.0.1');
    expect(again.status).toBe(409);
    const page = await fetch(`${on(1)}/pay/${renewal.token}`);
    expect(await page.text()).toContain('data-checkout-state="paid"');
  });
});
