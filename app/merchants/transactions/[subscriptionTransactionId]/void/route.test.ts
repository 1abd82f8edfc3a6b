import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { transactions, webhookEvents } from '@/db/schema';
import { payWithCard } from '@/lib/checkout/payments';
import { createId } from '@/lib/ids';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { call } from '@/test/http';
import { createTestMerchant } from '@/test/merchants';
import { POST } from './route';

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

const sandbox = createSandboxProcessor({ pendingMs: 0 });

async function paid(card = CARDS.approved) {
  const link = await createTestLink(database.db);
  const payment = await payWithCard(database.db, sandbox, { token: link.token, card: parseCard(cardForm(card))! });
  return { ...link, txnId: payment.subscriptionTransactionId };
}
const voidAs = (headers: Record<string, string>, id: string, body?: unknown) =>
  call(POST, { method: 'POST', headers, params: { subscriptionTransactionId: id }, body });
const eventsOf = (txnId: string) => database.db.select().from(webhookEvents).where(eq(webhookEvents.transactionId, txnId));

describe('POST /merchants/transactions/{id}/void', () => {
  it('voids an APPROVED charge: 200 with the original chargeDate, the voided event, and the plan left as it was', async () => {
    const link = await paid();
    const [before] = await database.db.select().from(transactions).where(eq(transactions.id, link.txnId));
    const res = await voidAs(link.merchant.headers, link.txnId);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      subscriptionTransactionId: link.txnId,
      status: 'VOIDED',
      amount: before!.amount,
      chargeDate: before!.chargeDate.getTime(),
      gatewayTransactionId: before!.gatewayTransactionId,
    });
    const voidedEvents = (await eventsOf(link.txnId)).filter((e) => e.type === 'subscription.charge.voided');
    expect(voidedEvents).toHaveLength(1);
    expect(JSON.parse(voidedEvents[0]!.body).data).toMatchObject({ status: 'VOIDED', subscriptionTransactionId: link.txnId });
    expect((await link.plan()).status).toBe('ACTIVE');
  });

  it('accepts {} as the body', async () => {
    const link = await paid();
    expect((await voidAs(link.merchant.headers, link.txnId, {})).status).toBe(200);
  });

  it('refuses to void an already VOIDED or a DECLINED transaction (409)', async () => {
    const link = await paid();
    expect((await voidAs(link.merchant.headers, link.txnId)).status).toBe(200);
    const again = await voidAs(link.merchant.headers, link.txnId);
    expect(again.status).toBe(409);
    expect(again.json.error.message).toContain('VOIDED');

    const declined = await paid(CARDS.declined);
    const res = await voidAs(declined.merchant.headers, declined.txnId);
    expect(res.status).toBe(409);
    expect(res.json.error.message).toContain('DECLINED');
    expect(await eventsOf(declined.txnId)).toHaveLength(1);
  });

  it('of five voids at once, one succeeds and writes one event', async () => {
    const link = await paid();
    const replies = await Promise.all(Array.from({ length: 5 }, () => voidAs(link.merchant.headers, link.txnId)));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const voided = await database.db
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.transactionId, link.txnId), eq(webhookEvents.type, 'subscription.charge.voided')));
    expect(voided).toHaveLength(1);
  });

  it('answers 404 for a malformed or unknown id, 403 for another merchant\'s, 401 without credentials', async () => {
    const link = await paid();
    const other = await createTestMerchant(database.db);
    expect((await voidAs(link.merchant.headers, 'txn_nope')).status).toBe(404);
    expect((await voidAs(link.merchant.headers, createId('txn'))).status).toBe(404);
    expect((await voidAs(other.headers, link.txnId)).status).toBe(403);
    expect((await voidAs({}, link.txnId)).status).toBe(401);
    const [txn] = await database.db.select().from(transactions).where(eq(transactions.id, link.txnId));
    expect(txn!.status).toBe('APPROVED');
  });
});
