import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { emails, users } from '@/db/schema';
import { getMerchant } from '@/db/queries/merchants';
import { payWithCard } from '@/lib/checkout/payments';
import { createEInvoiceProvider } from '@/lib/einvoicing';

import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { deliveriesSettled } from '@/lib/unit-of-work';
import { alegraDoubleAccount, type AlegraDouble } from '@/test/alegra-double';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { TEST_RESOLUTION } from '@/test/einvoicing-drafts';
import { factusDoubleAccount, type FactusDouble } from '@/test/factus-double';
import { withEInvoiceDoubles } from '@/test/invoice-doubles';
import { alegraSettings, factusSettings, holdInvoiceHandOffs, restoreInvoiceQueue, turnEInvoicingOn } from '@/test/invoices';
import { issueDueInvoices } from './issue';
import { merchantRangeWarnings, rangeWarnings, rangeWarningText } from './notices';

// What e-invoicing tells the merchant's owners (docs/einvoicing.md#notices): a numbering range
// nearly used or about to expire (e-mail once, and the portal's banner), and invoices that FAILED
// (e-mail at most once a day).

let database: Database;
let factus: FactusDouble;
let alegra: AlegraDouble;
const sandbox = createSandboxProcessor({ pendingMs: 0 });
const RANGE = { prefix: 'SETP', from: 1000, to: 1999, endDate: '2027-06-30' };

const doubles = withEInvoiceDoubles();
beforeAll(() => ({ factus, alegra, database } = doubles));

describe('a numbering range', () => {
  it('warns from 90 % used, and says when it is used up', () => {
    expect(rangeWarnings(RANGE, 1899, '2027-01-01')).toEqual([]);
    expect(rangeWarnings(RANGE, 1900, '2027-01-01')).toEqual([{ kind: 'usage', prefix: 'SETP', used: 900, total: 1000, left: 100 }]);
    const [done] = rangeWarnings(RANGE, 2000, '2027-01-01');
    expect(done).toMatchObject({ kind: 'usage', left: 0 });
    expect(rangeWarningText(done!, 'es')).toMatch(/^Su numeración de facturas con prefijo SETP se agotó/);
    expect(rangeWarningText(rangeWarnings(RANGE, 1900, '2027-01-01')[0]!, 'en')).toMatch(/^Your invoice numbering with prefix SETP is 90 % used \(numbers left: 100\)\./);
  });

  it('warns from 30 days before it expires, and once it has', () => {
    expect(rangeWarnings(RANGE, 1000, '2027-05-30')).toEqual([]);
    expect(rangeWarnings(RANGE, 1000, '2027-05-31')).toEqual([{ kind: 'expiry', prefix: 'SETP', endDate: '2027-06-30', daysLeft: 30 }]);
    const [expired] = rangeWarnings(RANGE, 1000, '2027-07-01');
    expect(expired).toMatchObject({ daysLeft: -1 });
    expect(rangeWarningText(expired!, 'es')).toContain('venció el 30 de junio de 2027');
  });
});

async function ownersOf(merchantId: string, count: number): Promise<string[]> {
  const addresses = Array.from({ length: count }, (_, i) => `owner${i}-${merchantId}@example.com`.toLowerCase());
  await database.db.insert(users).values(addresses.map((email) => ({ id: randomUUID(), merchantId, name: 'Dueña', email, role: 'owner' as const })));
  await database.db.insert(users).values({ id: randomUUID(), merchantId, name: 'Lectora', email: `viewer-${merchantId}@example.com`.toLowerCase(), role: 'viewer' });
  return addresses;
}

const noticesOf = (merchantId: string) => database.db.select().from(emails).where(and(eq(emails.merchantId, merchantId), eq(emails.kind, 'einvoice_notice')));

async function pay(token: string) {
  const paid = await payWithCard(database.db, sandbox, { token, card: parseCard(cardForm(CARDS.approved))! });
  expect(paid.status).toBe('APPROVED');
}

describe("the owners' e-mails", () => {
  it('tell every owner once when an Alegra invoice takes the range past 90 %, and the portal says so', async () => {
    const link = await createTestLink(database.db, { amount: 4_990_000 });
    const merchantId = link.merchant.merchantId;
    const owners = await ownersOf(merchantId, 2);
    const settings = alegraSettings(alegraDoubleAccount(alegra));
    // Ten numbers, the eighth next: its invoice takes the range to 90 %.
    const resolution = { ...TEST_RESOLUTION, number: `1876${Date.now()}`.slice(0, 14), from: TEST_RESOLUTION.from, to: TEST_RESOLUTION.from + 9 };
    await turnEInvoicingOn(database.db, merchantId, { ...settings, resolution });
    expect(merchantRangeWarnings((await getMerchant(database.db, merchantId))!)).toEqual([]);

    const held = holdInvoiceHandOffs();
    await pay(link.token);
    const second = await createTestLink(database.db, { amount: 4_990_000 }, link.merchant);
    await pay(second.token);
    await database.db.execute(`update merchants set einvoice_next_number = ${resolution.from + 8} where id = '${merchantId}'`);
    expect(await issueDueInvoices(database.db, { ids: [held[0]!.invoiceId] })).toMatchObject({ issued: 1 });
    expect(await issueDueInvoices(database.db, { ids: [held[1]!.invoiceId] })).toMatchObject({ issued: 1 });
    restoreInvoiceQueue();
    await deliveriesSettled();

    const sent = await noticesOf(merchantId);
    expect(sent.map((e) => e.toAddress).sort()).toEqual(owners.sort());
    expect(sent[0]!.subject).toBe(`Numeración de facturas SETP (resolución ${resolution.number}): casi agotada`);
    expect(sent[0]!.text).toContain('va por el 90 % (números disponibles: 1)');
    const [warning] = merchantRangeWarnings((await getMerchant(database.db, merchantId))!);
    expect(warning).toMatchObject({ kind: 'usage', left: 0 });
  });

  it('tell the owners when invoices FAILED, once a day however many fail at once', async () => {
    const link = await createTestLink(database.db, { amount: 4_990_000 });
    const merchantId = link.merchant.merchantId;
    const [owner] = await ownersOf(merchantId, 1);
    await turnEInvoicingOn(database.db, merchantId, factusSettings(factusDoubleAccount(factus)));
    const held = holdInvoiceHandOffs();
    await pay(link.token);
    for (let i = 0; i < 4; i += 1) await pay((await createTestLink(database.db, { amount: 4_990_000 }, link.merchant)).token);
    factus.fail({ kind: 'status', status: 502, path: '/v2/bills', times: 10 });
    const after72h = new Date(Date.now() + 72 * 3600_000 + 1000);
    const providerFor = (s: Parameters<typeof createEInvoiceProvider>[0]) => createEInvoiceProvider(s, { timeoutMs: 500 });
    expect(await issueDueInvoices(database.db, { ids: held.map((h) => h.invoiceId), now: after72h, providerFor })).toMatchObject({ failed: 5 });
    restoreInvoiceQueue();
    factus.clearFaults();
    await deliveriesSettled();

    const sent = await noticesOf(merchantId);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ toAddress: owner, subject: 'Facturas electrónicas sin emitir' });
    expect(sent[0]!.text).toContain('502');
  });
});
