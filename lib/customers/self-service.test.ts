import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { POST as manageLinkRoute } from '@/app/merchants/subscription-plans/[id]/manage-link/route';
import { manageLinks, merchants, subscriptionPlans, transactions, webhookEvents } from '@/db/schema';
import { runRenewalSweep } from '@/lib/billing/sweep';
import { parseCard } from '@/lib/processors/card';
import type { PaymentProcessor } from '@/lib/processors/processor';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { createWompiClient } from '@/lib/processors/wompi/client';
import { createWompiProcessor } from '@/lib/processors/wompi/processor';
import { databaseHoldingHandOffs } from '@/test/database';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { startWompiDouble, testWompiKeys } from '@/test/wompi-double';
import { call } from '@/test/http';
import { createTestMerchant } from '@/test/merchants';
import { paidPlan as paidPlanOf } from '@/test/factories';
import { manageLinkUse } from '@/db/queries/manage-links';
import { CUSTOMER_CANCEL_REASON } from '@/lib/cancel-reason';
import { createManageLink, findManagedPlan, recordManageLinkUse } from '@/lib/auth/manage-links';
import { cancelByCustomer, replacePaymentMethod } from './self-service';

// The customer's page behind /manage/<token> (docs/customers.md#the-manage-page): the merchant's
// link, what a bad token finds (nothing), cancel, and replacing the payment method.

const database = databaseHoldingHandOffs();

const sandbox = createSandboxProcessor({ pendingMs: 0 });
const card = (n: string) => ({ type: 'CARD' as const, card: parseCard(cardForm(n))! });
const tokenOf = (url: string) => new URL(url).pathname.split('/').pop()!;

async function paidPlan(card = CARDS.approved) {
  const link = await paidPlanOf(database.db, { card, processor: sandbox });
  const manage = await createManageLink(database.db, await link.plan(), { source: 'merchant' });
  return { link, manage, token: tokenOf(manage.url) };
}

const newLink = (link: { merchant: { headers: Record<string, string> }; subscriptionPlanId: string }, body?: unknown, headers = link.merchant.headers) =>
  call(manageLinkRoute, { method: 'POST', headers, params: { id: link.subscriptionPlanId }, body });

describe('POST /merchants/subscription-plans/{id}/manage-link', () => {
  it('answers 201 with a /manage/ URL valid for 7 days that opens this plan, storing only a hash', async () => {
    const link = await createTestLink(database.db);
    const before = Date.now();
    const res = await newLink(link);
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ url: expect.stringMatching(/^http:\/\/[^/]+\/manage\/mng_[0-9A-Za-z]{40}$/), expiresAt: expect.any(String) });
    const expires = Date.parse(res.json.expiresAt);
    expect(expires - before).toBeGreaterThanOrEqual(7 * 86400_000 - 1000);
    expect(expires - before).toBeLessThanOrEqual(7 * 86400_000 + 5000);
    const token = tokenOf(res.json.url);
    expect((await findManagedPlan(database.db, token))?.plan.id).toBe(link.subscriptionPlanId);
    const rows = await database.db.select().from(manageLinks).where(eq(manageLinks.planId, link.subscriptionPlanId));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect((await newLink(link, {})).status).toBe(201);
  });

  it('refuses a body with fields (400), no credentials (401), another merchant (403), an unknown or malformed id (404)', async () => {
    const link = await createTestLink(database.db);
    expect((await newLink(link, { expiresInDays: 30 })).status).toBe(400);
    expect((await newLink(link, undefined, {})).status).toBe(401);
    const other = await createTestMerchant(database.db, 'Otra tienda');
    expect((await newLink(link, undefined, other.headers)).status).toBe(403);
    expect((await call(manageLinkRoute, { method: 'POST', headers: link.merchant.headers, params: { id: 'sub_nope' } })).status).toBe(404);
    expect((await call(manageLinkRoute, { method: 'POST', headers: link.merchant.headers, params: { id: 'sub_000000000000000000000000' } })).status).toBe(404);
  });
});

describe('a manage token', () => {
  it('finds nothing when malformed, forged, altered or expired', async () => {
    const { link, token } = await paidPlan();
    expect(await findManagedPlan(database.db, token)).not.toBeNull();
    const altered = token.slice(0, -1) + (token.endsWith('a') ? 'b' : 'a');
    for (const bad of ['', 'mng_', 'mng_short', `${token}x`, altered, `mng_${'A'.repeat(40)}`, token.toUpperCase(), `../${token}`]) {
      expect(await findManagedPlan(database.db, bad)).toBeNull();
    }
    const expired = await createManageLink(database.db, await link.plan(), { source: 'merchant', now: new Date(Date.now() - 8 * 86400_000) });
    expect(await findManagedPlan(database.db, tokenOf(expired.url))).toBeNull();
  });

  it('counts each opening for the merchant', async () => {
    const { link, token } = await paidPlan();
    // The receipt e-mail's link and the merchant's.
    expect(await manageLinkUse(database.db, link.subscriptionPlanId)).toMatchObject({ links: 2, uses: 0, lastUsedAt: null });
    await recordManageLinkUse(database.db, token);
    await recordManageLinkUse(database.db, token);
    expect(await manageLinkUse(database.db, link.subscriptionPlanId)).toMatchObject({ links: 2, uses: 2, lastUsedAt: expect.any(Date) });
  });
});

describe('the customer cancels', () => {
  it('cancels at once with its reason and the subscription.cancelled event for a merchant who chose it; a second cancel is a 409', async () => {
    const { link, token } = await paidPlan();
    await database.db.update(merchants).set({ webhookEventTypes: ['subscription.charge.approved', 'subscription.cancelled'] }).where(eq(merchants.id, link.merchant.merchantId));
    const { plan, emailed } = await cancelByCustomer(database.db, token);
    expect(plan).toMatchObject({ status: 'CANCELLED', cancelReason: CUSTOMER_CANCEL_REASON });
    expect(emailed).toBe(true);
    const events = await database.db.select().from(webhookEvents).where(eq(webhookEvents.planId, link.subscriptionPlanId));
    expect(JSON.parse(events.find((e) => e.type === 'subscription.cancelled')!.body).data).toMatchObject({ status: 'CANCELLED', reason: CUSTOMER_CANCEL_REASON });
    await expect(cancelByCustomer(database.db, token)).rejects.toMatchObject({ code: 'conflict' });
  });

  it('an unknown or expired token cancels nothing (404)', async () => {
    const { link } = await paidPlan();
    const expired = await createManageLink(database.db, await link.plan(), { source: 'merchant', now: new Date(Date.now() - 8 * 86400_000) });
    await expect(cancelByCustomer(database.db, tokenOf(expired.url))).rejects.toMatchObject({ code: 'not_found' });
    await expect(cancelByCustomer(database.db, `mng_${'z'.repeat(40)}`)).rejects.toMatchObject({ code: 'not_found' });
    expect((await link.plan()).status).toBe('ACTIVE');
  });
});

describe('the customer replaces the payment method', () => {
  it('a failing plan is charged with the new card at its next retry, and approved', async () => {
    const { link, token } = await paidPlan(CARDS.renewalsDecline);
    await runRenewalSweep(database.db, sandbox, { now: new Date((await link.plan()).nextChargeDate!.getTime() + 1000) });
    const failing = await link.plan();
    expect(failing).toMatchObject({ status: 'ACTIVE', renewalFailures: 1 });
    const result = await replacePaymentMethod(database.db, sandbox, { token, instrument: card(CARDS.approved) });
    expect(result.declined).toBeUndefined();
    expect(result.plan.paymentMethodToken).toMatch(/^pm_sandbox_approve_/);
    // Nothing is charged on replacement; the retry is on its date, with the new token.
    expect((await link.plan()).nextChargeDate).toEqual(failing.nextChargeDate);
    await runRenewalSweep(database.db, sandbox, { now: new Date(failing.nextChargeDate!.getTime() + 1000) });
    const renewals = await database.db.select().from(transactions).where(eq(transactions.planId, link.subscriptionPlanId)).orderBy(transactions.id);
    expect(renewals.map((t) => [t.kind, t.status])).toEqual([
      ['INITIAL', 'APPROVED'],
      ['RENEWAL', 'DECLINED'],
      ['RENEWAL', 'APPROVED'],
    ]);
    expect(renewals[2]!.paymentMethodToken).toBe(result.plan.paymentMethodToken);
    expect(await link.plan()).toMatchObject({ status: 'ACTIVE', renewalFailures: 0 });
  });

  it('with Nequi, saved as a Nequi method that the next renewal charges', async () => {
    const { link, token } = await paidPlan();
    const result = await replacePaymentMethod(database.db, sandbox, { token, instrument: { type: 'NEQUI', phoneNumber: '3991111111' } });
    expect(result.plan.paymentMethodToken).toMatch(/^pm_sandbox_nequi_approve_/);
    await runRenewalSweep(database.db, sandbox, { now: new Date(result.plan.nextChargeDate!.getTime() + 1000) });
    const [renewal] = await database.db.select().from(transactions).where(and(eq(transactions.kind, 'RENEWAL'), eq(transactions.planId, link.subscriptionPlanId)));
    expect(renewal).toMatchObject({ status: 'APPROVED', paymentMethodType: 'NEQUI' });
  });

  it.each([
    ['a declined card', CARDS.declined, 'insufficient_funds'],
    ['an unsupported card', CARDS.unsupported, 'card_not_supported'],
    ['a card that errors', CARDS.error, 'processor_error'],
  ])('%s is refused and changes nothing', async (_name, number, reason) => {
    const { link, token } = await paidPlan();
    const before = (await link.plan()).paymentMethodToken;
    const result = await replacePaymentMethod(database.db, sandbox, { token, instrument: card(number) });
    expect(result.declined).toBe(reason);
    expect((await link.plan()).paymentMethodToken).toBe(before);
  });

  it('writes subscription.payment_method_updated only for a merchant who chose it', async () => {
    const chosen = await paidPlan();
    await database.db.update(merchants).set({ webhookEventTypes: ['subscription.payment_method_updated'] }).where(eq(merchants.id, chosen.link.merchant.merchantId));
    const notChosen = await paidPlan();
    for (const p of [chosen, notChosen]) await replacePaymentMethod(database.db, sandbox, { token: p.token, instrument: card(CARDS.approved) });
    const typesOf = async (planId: string) => (await database.db.select().from(webhookEvents).where(eq(webhookEvents.planId, planId))).map((e) => e.type).sort();
    expect(await typesOf(chosen.link.subscriptionPlanId)).toEqual(['subscription.charge.approved', 'subscription.payment_method_updated']);
    expect(await typesOf(notChosen.link.subscriptionPlanId)).toEqual(['subscription.charge.approved']);
  });

  it('with Wompi saves a payment source from a browser token and both acceptance tokens; a refused token changes nothing', async () => {
    const double = await startWompiDouble({ settleMs: 60_000 });
    try {
      const keys = testWompiKeys();
      double.addMerchant(keys);
      const wompi = createWompiProcessor(keys, { apiUrl: double.url });
      const client = createWompiClient({ baseUrl: double.url, publicKey: keys.publicKey });
      // A fresh pair of single-use acceptance tokens for each attempt, as the page fetches them.
      const fresh = async () => {
        const documents = await client.merchant();
        return { acceptanceToken: documents.presigned_acceptance.acceptance_token, personalDataToken: documents.presigned_personal_data_auth.acceptance_token };
      };
      const { link, token } = await paidPlan();
      const before = (await link.plan()).paymentMethodToken;

      const forged = await replacePaymentMethod(database.db, wompi, { token, instrument: { type: 'CARD_TOKEN', token: 'tok_forged', brand: 'visa', last4: '4242' }, consent: await fresh() });
      expect(forged.declined).toBe('card_not_supported');
      expect((await link.plan()).paymentMethodToken).toBe(before);

      const cardToken = await client.tokenizeCard({ number: '4242424242424242', cvc: '123', exp_month: '12', exp_year: '30', card_holder: 'Ana Gómez' });
      const saved = await replacePaymentMethod(database.db, wompi, { token, instrument: { type: 'CARD_TOKEN', token: cardToken.id, brand: 'visa', last4: '4242' }, consent: await fresh() });
      expect(saved.declined).toBeUndefined();
      expect(saved.plan.paymentMethodToken).toMatch(/^wompi_source_CARD_\d+$/);
      expect((await link.plan()).paymentMethodToken).toBe(saved.plan.paymentMethodToken);
      expect(double.requests.filter((r) => r.path === '/v1/transactions')).toHaveLength(0);
    } finally {
      await double.close();
    }
  });

  it('is a 409 for a cancelled or unpaid plan, and for a processor that cannot save a method', async () => {
    const { link, token } = await paidPlan();
    const withoutSave: PaymentProcessor = { ...sandbox, saveMethod: undefined };
    await expect(replacePaymentMethod(database.db, withoutSave, { token, instrument: card(CARDS.approved) })).rejects.toMatchObject({ code: 'conflict' });
    await database.db.update(subscriptionPlans).set({ status: 'CANCELLED' }).where(eq(subscriptionPlans.id, link.subscriptionPlanId));
    await expect(replacePaymentMethod(database.db, sandbox, { token, instrument: card(CARDS.approved) })).rejects.toMatchObject({ code: 'conflict' });
    const unpaid = await createTestLink(database.db);
    const unpaidLink = await createManageLink(database.db, await unpaid.plan(), { source: 'merchant' });
    await expect(replacePaymentMethod(database.db, sandbox, { token: tokenOf(unpaidLink.url), instrument: card(CARDS.approved) })).rejects.toMatchObject({ code: 'conflict' });
  });
});
