import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATCH } from '@/app/admin/merchants/[id]/route';
import { POST as PAY } from '@/app/checkout/session/[token]/payments/route';
import { GET as GET_PAYMENT } from '@/app/checkout/session/[token]/payments/[transactionId]/route';
import { POST as VOID } from '@/app/merchants/transactions/[subscriptionTransactionId]/void/route';
import { merchants, subscriptionPlans, transactions, webhookEvents } from '@/db/schema';
import { runRenewalSweep } from '@/lib/billing/sweep';
import { runSettler } from '@/lib/settlement/settler';
import { resetEnvForTests } from '@/lib/env';
import { merchantProcessors } from '@/lib/processors';
import { createWompiClient } from '@/lib/processors/wompi/client';
import { eventChecksum, type WompiEvent } from '@/lib/processors/wompi/signatures';
import { createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { adminHeaders, call } from '@/test/http';
import { startWompiDouble, testWompiKeys, type WompiDouble } from '@/test/wompi-double';
import { POST as EVENT } from './route';

// A merchant with Wompi test keys, against the local double of Wompi's API: first payments by a
// browser card token, Nequi and PSE, renewals of the saved source, settlement by Wompi's events
// (checked, idempotent) and, with events lost, by asking Wompi.

let database: Awaited<ReturnType<typeof useTestDatabase>>;
let double: WompiDouble;

beforeAll(async () => {
  database = await useTestDatabase();
  double = await startWompiDouble({ settleMs: 60_000 });
  process.env.WOMPI_API_URL = double.url;
  resetEnvForTests();
});
afterAll(async () => {
  delete process.env.WOMPI_API_URL;
  resetEnvForTests();
  await double.close();
});

async function wompiLink(plan: Record<string, unknown> = {}) {
  const link = await createTestLink(database.db, plan);
  const keys = testWompiKeys();
  double.addMerchant(keys);
  const res = await call(PATCH, { method: 'PATCH', headers: adminHeaders(), params: { id: link.merchant.merchantId }, body: { processor: { type: 'wompi', ...keys } } });
  expect(res.status).toBe(200);
  const client = createWompiClient({ baseUrl: double.url, publicKey: keys.publicKey });
  /** A fresh pair of single-use acceptance tokens, as the page fetches for each attempt. */
  const consent = async () => {
    const merchant = await client.merchant();
    return { acceptanceToken: merchant.presigned_acceptance.acceptance_token, personalDataToken: merchant.presigned_personal_data_auth.acceptance_token };
  };
  return { ...link, keys, consent, client };
}

async function cardToken(link: Awaited<ReturnType<typeof wompiLink>>, number = '4242424242424242') {
  return link.client.tokenizeCard({ number, cvc: '123', exp_month: '12', exp_year: '30', card_holder: 'Ana Gómez' });
}

const pay = (token: string, body: Record<string, unknown>) => call(PAY, { params: { token }, body });
const event = (merchantId: string, body: unknown) => call(EVENT, { params: { merchantId }, body });
const eventsOf = (planId: string) => database.db.select().from(webhookEvents).where(eq(webhookEvents.planId, planId));
const txnOf = async (id: string) => (await database.db.select().from(transactions).where(eq(transactions.id, id)))[0]!;

describe('merchant processor settings (PATCH /admin/merchants/{id})', () => {
  it('stores Wompi keys with the secrets encrypted and shows only the type and public key', async () => {
    const link = await wompiLink();
    const res = await call(PATCH, { method: 'PATCH', headers: adminHeaders(), params: { id: link.merchant.merchantId }, body: { name: 'Renombrado' } });
    expect(res.json.processor).toEqual({ type: 'wompi', publicKey: link.keys.publicKey });
    expect(res.text).not.toContain(link.keys.privateKey);
    const [row] = await database.db.select().from(merchants).where(eq(merchants.id, link.merchant.merchantId));
    for (const secret of [link.keys.privateKey, link.keys.eventsSecret, link.keys.integritySecret]) expect(JSON.stringify(row)).not.toContain(secret);
    expect(row!.wompiSecrets).toMatch(/^v2\./);
    const back = await call(PATCH, { method: 'PATCH', headers: adminHeaders(), params: { id: link.merchant.merchantId }, body: { processor: { type: 'sandbox' } } });
    expect(back.json.processor).toEqual({ type: 'sandbox', publicKey: null });
  });

  it.each([
    ['publicKey', 'pub_prod_abc', 'pub_test_'],
    ['privateKey', 'prv_prod_abc', 'prv_test_'],
    ['eventsSecret', 'prod_events_abc', 'test_events_'],
    ['integritySecret', 'prod_integrity_abc', 'test_integrity_'],
  ])('refuses a production %s in a sandbox deployment with a 400 naming the field', async (field, value, prefix) => {
    const link = await createTestLink(database.db);
    const processor = { type: 'wompi', ...testWompiKeys(), [field]: value };
    const res = await call(PATCH, { method: 'PATCH', headers: adminHeaders(), params: { id: link.merchant.merchantId }, body: { processor } });
    expect(res.status).toBe(400);
    expect(res.json.error.details).toEqual([{ path: `processor.${field}`, message: expect.stringContaining(prefix) }]);
  });

  it('refuses a wompi processor with a key missing, and an unknown type', async () => {
    const link = await createTestLink(database.db);
    const { publicKey, privateKey, eventsSecret } = testWompiKeys();
    const partial = { publicKey, privateKey, eventsSecret };
    const missing = await call(PATCH, { method: 'PATCH', headers: adminHeaders(), params: { id: link.merchant.merchantId }, body: { processor: { type: 'wompi', ...partial } } });
    expect(missing.status).toBe(400);
    expect(missing.json.error.details[0].path).toBe('processor.integritySecret');
    const unknown = await call(PATCH, { method: 'PATCH', headers: adminHeaders(), params: { id: link.merchant.merchantId }, body: { processor: { type: 'stripe' } } });
    expect(unknown.status).toBe(400);
  });
});

describe('paying through Wompi', () => {
  it('refuses card fields (the card is tokenized in the browser) and a payment without consent, recording nothing', async () => {
    const link = await wompiLink();
    const fields = await pay(link.token, { cardNumber: '4242 4242 4242 4242', cardExpiry: '12/30', cardCvc: '123', cardHolder: 'Ana' });
    expect(fields.status).toBe(400);
    expect(fields.json.error.message).toMatch(/tokenized in the browser/);
    const token = await cardToken(link);
    const noConsent = await pay(link.token, { method: 'CARD', cardToken: token.id, cardLast4: '4242' });
    expect(noConsent.status).toBe(400);
    expect(await database.db.select().from(transactions).where(eq(transactions.planId, link.subscriptionPlanId))).toEqual([]);
  });

  it('charges a card token PENDING, settles by the signed event once however often Wompi retries, and refuses a forged event', async () => {
    const link = await wompiLink();
    const token = await cardToken(link);
    const res = await pay(link.token, { method: 'CARD', cardToken: token.id, cardBrand: 'VISA', cardLast4: '4242', ...(await link.consent()) });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 'PENDING', transactionId: expect.stringMatching(/^\d+(-\d+)+$/) });
    const txnId = res.json.subscriptionTransactionId;
    expect(double.transactions.get(res.json.transactionId)!.reference).toBe(txnId);

    const wompiTxn = double.transactions.get(res.json.transactionId)!;
    wompiTxn.status = 'APPROVED';
    const forged = double.buildEvent(wompiTxn.id, { secret: 'test_events_forged' });
    expect((await event(link.merchant.merchantId, forged)).status).toBe(401);
    const tampered = { ...double.buildEvent(wompiTxn.id), timestamp: 1 };
    expect((await event(link.merchant.merchantId, tampered)).status).toBe(401);
    expect((await txnOf(txnId)).status).toBe('PENDING');

    const signed = double.buildEvent(wompiTxn.id);
    const lower = { ...signed, signature: { ...signed.signature, checksum: signed.signature.checksum.toLowerCase() } };
    expect(await event(link.merchant.merchantId, signed)).toMatchObject({ status: 200, json: { outcome: 'settled' } });
    expect(await event(link.merchant.merchantId, lower)).toMatchObject({ status: 200, json: { outcome: 'already_settled' } });
    expect(await event(link.merchant.merchantId, signed)).toMatchObject({ status: 200, json: { outcome: 'already_settled' } });
    expect(await txnOf(txnId)).toMatchObject({ status: 'APPROVED', cardLast4: '4242', cardBrand: 'visa', paymentMethodType: 'CARD' });
    expect(await link.plan()).toMatchObject({ status: 'ACTIVE', paymentMethodToken: expect.stringMatching(/^wompi_source_CARD_\d+$/) });
    expect((await eventsOf(link.subscriptionPlanId)).map((e) => e.type)).toEqual(['subscription.charge.approved']);
  });

  it('settles without any event by asking Wompi, and renewals charge the saved source with recurrent: true', async () => {
    const link = await wompiLink();
    const token = await cardToken(link);
    const paid = await pay(link.token, { method: 'CARD', cardToken: token.id, cardLast4: '4242', ...(await link.consent()) });
    double.transactions.get(paid.json.transactionId)!.status = 'APPROVED';
    const polled = await call(GET_PAYMENT, { params: { token: link.token, transactionId: paid.json.subscriptionTransactionId } });
    expect(polled.json.status).toBe('APPROVED');
    const plan = await link.plan();
    await database.db.update(subscriptionPlans).set({ nextChargeDate: new Date(Date.now() - 1000) }).where(eq(subscriptionPlans.id, plan.id));

    const summary = await runRenewalSweep(database.db, merchantProcessors(database.db), { now: new Date() });
    expect(summary.transactionIds.length).toBeGreaterThanOrEqual(1);
    const renewal = (await database.db.select().from(transactions).where(and(eq(transactions.planId, plan.id), eq(transactions.kind, 'RENEWAL'))))[0]!;
    expect(renewal).toMatchObject({ status: 'PENDING', paymentMethodToken: plan.paymentMethodToken });
    const sent = double.requests.filter((r) => r.path === '/v1/transactions' && r.body?.reference === renewal.id);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.body).toMatchObject({ recurrent: true, payment_source_id: Number(plan.paymentMethodToken!.split('_').at(-1)), amount_in_cents: plan.amount });
    // A saved source carries no acceptance tokens: consent was given when it was made.
    expect(sent[0]!.body).not.toHaveProperty('acceptance_token');
    expect(sent[0]!.body).not.toHaveProperty('accept_personal_auth');
    expect(sent[0]!.status).toBe(201);
    double.transactions.get(renewal.gatewayTransactionId!)!.status = 'APPROVED';
    expect((await event(link.merchant.merchantId, double.buildEvent(renewal.gatewayTransactionId!))).json.outcome).toBe('settled');
    expect((await txnOf(renewal.id)).status).toBe('APPROVED');
    expect((await link.plan()).nextChargeDate!.getTime()).toBeGreaterThan(Date.now());
  });

  it('pays Nequi (single by phone, subscription by an approved token) and PSE (a subscription by PSE is renewed by link); void is cards only', async () => {
    const single = await wompiLink({ modality: 'SINGLE' });
    const nequi = await pay(single.token, { method: 'NEQUI', phoneNumber: '399 111 1111', ...(await single.consent()) });
    expect(nequi.json.status).toBe('PENDING');
    const nequiTxn = double.transactions.get(nequi.json.transactionId)!;
    nequiTxn.status = 'APPROVED';
    expect((await event(single.merchant.merchantId, double.buildEvent(nequiTxn.id))).json.outcome).toBe('settled');
    expect(await txnOf(nequi.json.subscriptionTransactionId)).toMatchObject({ status: 'APPROVED', paymentMethodType: 'NEQUI', cardLast4: null });
    const voided = await call(VOID, { params: { subscriptionTransactionId: nequi.json.subscriptionTransactionId }, headers: single.merchant.headers, body: {} });
    expect(voided.status).toBe(409);
    expect(voided.json.error.message).toMatch(/NEQUI payment cannot be voided/);

    const recurring = await wompiLink();
    const byPhone = await pay(recurring.token, { method: 'NEQUI', phoneNumber: '3991111111', ...(await recurring.consent()) });
    expect(byPhone.status).toBe(400);
    // A subscription may start with PSE (docs/billing.md#renewal-links): nothing is saved, and the
    // plan is renewed by link.
    const byBank = await wompiLink();
    const pse = await pay(byBank.token, { method: 'PSE', userType: 'PERSON', legalIdType: 'CC', legalId: '1020304050', institutionCode: '1', fullName: 'Ana Gómez', phoneNumber: '3001234567', ...(await byBank.consent()) });
    expect(pse.json).toMatchObject({ status: 'PENDING' });
    expect(double.transactions.get(pse.json.transactionId)!.payment_source_id ?? null).toBeNull();
    double.transactions.get(pse.json.transactionId)!.status = 'APPROVED';
    expect((await event(byBank.merchant.merchantId, double.buildEvent(pse.json.transactionId))).json.outcome).toBe('settled');
    const [bankPlan] = await database.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.checkoutToken, byBank.token));
    expect(bankPlan).toMatchObject({ status: 'ACTIVE', renewalCollection: 'LINK', paymentMethodToken: null });
    const token = await recurring.client.tokenizeNequi('3991111111');
    double.decideNequi(token.id);
    const saved = await pay(recurring.token, { method: 'NEQUI', phoneNumber: '3991111111', nequiToken: token.id, ...(await recurring.consent()) });
    expect(saved.json.status).toBe('PENDING');

    const bank = await wompiLink({ modality: 'SINGLE' });
    const psePay = await pay(bank.token, { method: 'PSE', userType: 'PERSON', legalIdType: 'CC', legalId: '1020304050', institutionCode: '2', fullName: 'Ana Gómez', phoneNumber: '3001234567', ...(await bank.consent()) });
    // The sandbox gives no bank URL while PENDING: it comes with the final status, and then the page shows the outcome instead.
    expect(psePay.json.status).toBe('PENDING');
    expect(psePay.json).not.toHaveProperty('redirectUrl');
    const pseTxn = double.transactions.get(psePay.json.transactionId)!;
    expect(pseTxn.redirect_url).toBe(`${process.env.APP_URL}/pay/${bank.token}?payment=${psePay.json.subscriptionTransactionId}`);
    double.finalize(pseTxn.id);
    const after = await call(GET_PAYMENT, { params: { token: bank.token, transactionId: psePay.json.subscriptionTransactionId } });
    expect(after.json).toMatchObject({ status: 'DECLINED' });
    expect(after.json).not.toHaveProperty('redirectUrl');

    // A bank whose URL appears while the payment is still PENDING: the page is sent there.
    double.setPseUrl('while-pending');
    try {
      const slow = await wompiLink({ modality: 'SINGLE' });
      const slowPay = await pay(slow.token, { method: 'PSE', userType: 'COMPANY', legalIdType: 'NIT', legalId: '900123456', institutionCode: '1', fullName: 'Acme SAS', phoneNumber: '3001234567', ...(await slow.consent()) });
      expect(slowPay.json).toMatchObject({ status: 'PENDING', redirectUrl: expect.stringMatching(/\/bank\//) });
    } finally {
      double.setPseUrl('with-final');
    }
  });

  it('refuses bad PSE and Nequi fields with 400 naming them', async () => {
    const link = await wompiLink({ modality: 'SINGLE' });
    const pse = await pay(link.token, { method: 'PSE', userType: 'ROBOT', legalIdType: 'XX', legalId: '!', institutionCode: '', fullName: '', phoneNumber: '123', ...(await link.consent()) });
    expect(pse.status).toBe(400);
    expect(pse.json.error.details.map((d: { path: string }) => d.path).sort()).toEqual(['fullName', 'institutionCode', 'legalId', 'legalIdType', 'phoneNumber', 'userType']);
    const nequi = await pay(link.token, { method: 'NEQUI', phoneNumber: '12', ...(await link.consent()) });
    expect(nequi.json.error.details[0].path).toBe('phoneNumber');
    const method = await pay(link.token, { method: 'BITCOIN' });
    expect(method.json.error.details[0].path).toBe('method');
  });

  it('answers 401 to an event for an unknown merchant or one without Wompi keys, and 400 to a body that is not an event', async () => {
    const link = await wompiLink();
    const token = await cardToken(link);
    const paid = await pay(link.token, { method: 'CARD', cardToken: token.id, cardLast4: '4242', ...(await link.consent()) });
    const signed = double.buildEvent(paid.json.transactionId);
    expect((await event('mch_000000000000000000000000', signed)).status).toBe(401);
    const sandboxLink = await createTestLink(database.db);
    expect((await event(sandboxLink.merchant.merchantId, signed)).status).toBe(401);
    expect((await event(link.merchant.merchantId, { hello: 'world' })).status).toBe(400);
  });
});

describe('events checked, not believed (docs/processors.md#wompis-events)', () => {
  /** A card payment through Wompi left PENDING at the double, and the merchant's events secret. */
  async function pendingCard() {
    const link = await wompiLink();
    const token = await cardToken(link);
    const paid = await pay(link.token, { method: 'CARD', cardToken: token.id, cardLast4: '4242', ...(await link.consent()) });
    expect(paid.json.status).toBe('PENDING');
    return { link, gatewayId: paid.json.transactionId as string, txnId: paid.json.subscriptionTransactionId as string };
  }
  /** `event` re-signed with the merchant's real secret: what someone holding one genuine event cannot do, so only its own fields change. */
  const resign = (e: WompiEvent, secret: string) => ({ ...e, signature: { ...e.signature, checksum: eventChecksum(e, secret) } });
  const readBacks = (gatewayId: string) => double.requests.filter((r) => r.method === 'GET' && r.path === `/v1/transactions/${gatewayId}`).length;

  it('refuses with 401 an event whose signature leaves out the id, status or amount it acts on, and settles nothing', async () => {
    const { link, gatewayId, txnId } = await pendingCard();
    const genuine = double.buildEvent(gatewayId);
    for (const properties of [['transaction.id'], ['transaction.id', 'transaction.amount_in_cents'], ['transaction.status', 'transaction.amount_in_cents'], []]) {
      // A captured event whose property list names less than it carries: the checksum matches, the status is anyone's.
      const spliced = { ...genuine, signature: { properties, checksum: '' }, data: { transaction: { ...(genuine.data.transaction as object), status: 'APPROVED' } } };
      const res = await event(link.merchant.merchantId, resign(spliced, link.keys.eventsSecret));
      expect(res.status, properties.join()).toBe(401);
      expect(res.json.error.message).toMatch(/does not cover transaction\./);
    }
    expect(await txnOf(txnId)).toMatchObject({ status: 'PENDING' });
    expect(await eventsOf((await txnOf(txnId)).planId)).toEqual([]);
    expect(readBacks(gatewayId)).toBe(0);
  });

  it('refuses with 401 an event over 72 hours old, however well signed', async () => {
    const { link, gatewayId, txnId } = await pendingCard();
    double.transactions.get(gatewayId)!.status = 'APPROVED';
    const stale = resign({ ...double.buildEvent(gatewayId), timestamp: Math.floor(Date.now() / 1000) - 72 * 3600 - 60 }, link.keys.eventsSecret);
    const res = await event(link.merchant.merchantId, stale);
    expect(res.status).toBe(401);
    expect(res.json.error.message).toMatch(/older than 72 hours/);
    expect((await txnOf(txnId)).status).toBe('PENDING');
    // A day old, as Wompi's own retries are: acted on.
    const retried = resign({ ...double.buildEvent(gatewayId), timestamp: Math.floor(Date.now() / 1000) - 24 * 3600 }, link.keys.eventsSecret);
    expect((await event(link.merchant.merchantId, retried)).json.outcome).toBe('settled');
  });

  it('settles what Wompi answers, not what the event says: APPROVED said while Wompi says PENDING waits, DECLINED there declines', async () => {
    const { link, gatewayId, txnId } = await pendingCard();
    const says = double.buildEvent(gatewayId, { status: 'APPROVED' });
    expect(await event(link.merchant.merchantId, says)).toMatchObject({ status: 200, json: { outcome: 'pending' } });
    expect(readBacks(gatewayId)).toBe(1);
    expect((await txnOf(txnId)).status).toBe('PENDING');
    double.transactions.get(gatewayId)!.status = 'DECLINED';
    expect(await event(link.merchant.merchantId, says)).toMatchObject({ status: 200, json: { outcome: 'settled' } });
    expect((await txnOf(txnId)).status).toBe('DECLINED');
    expect((await link.plan()).status).toBe('PENDING_ACTIVATION');
    expect((await eventsOf((await txnOf(txnId)).planId)).map((e) => e.type)).toEqual(['subscription.charge.declined']);
  });

  it('a Wompi that does not answer leaves the charge PENDING for the settler, which settles it from Wompi', async () => {
    const { link, gatewayId, txnId } = await pendingCard();
    double.transactions.get(gatewayId)!.status = 'APPROVED';
    double.dropReply('GET', `/v1/transactions/${gatewayId}`);
    expect(await event(link.merchant.merchantId, double.buildEvent(gatewayId))).toMatchObject({ status: 200, json: { outcome: 'pending' } });
    expect((await txnOf(txnId)).status).toBe('PENDING');
    await runSettler(database.db, { now: new Date(Date.now() + 60_000) });
    expect((await txnOf(txnId)).status).toBe('APPROVED');
    expect((await link.plan()).status).toBe('ACTIVE');
  });

  it('a dashboard void is recorded only once Wompi says VOIDED', async () => {
    const { link, gatewayId, txnId } = await pendingCard();
    double.transactions.get(gatewayId)!.status = 'APPROVED';
    expect((await event(link.merchant.merchantId, double.buildEvent(gatewayId))).json.outcome).toBe('settled');
    const claimsVoid = double.buildEvent(gatewayId, { status: 'VOIDED' });
    expect((await event(link.merchant.merchantId, claimsVoid)).json.outcome).toBe('already_settled');
    expect((await txnOf(txnId)).status).toBe('APPROVED');
    double.transactions.get(gatewayId)!.status = 'VOIDED';
    expect((await event(link.merchant.merchantId, claimsVoid)).json.outcome).toBe('settled');
    expect((await txnOf(txnId)).status).toBe('VOIDED');
  });
});

describe('Wompi as it answers in 2026 (docs/processors.md)', () => {
  const approve = (gatewayId: string) => void (double.transactions.get(gatewayId)!.status = 'APPROVED');

  it('spends one fresh pair per attempt: the first payment of a subscription on its source, none on the charge of it; a retry after a decline needs a new pair', async () => {
    const link = await wompiLink();
    const declined = await cardToken(link, '4111111111111111');
    const first = await link.consent();
    const paid = await pay(link.token, { method: 'CARD', cardToken: declined.id, cardLast4: '1111', ...first });
    expect(paid.json.status).toBe('PENDING');
    const source = double.requests.filter((r) => r.path === '/v1/payment_sources').at(-1)!;
    expect(source).toMatchObject({ status: 201, body: { acceptance_token: first.acceptanceToken, accept_personal_auth: first.personalDataToken } });
    const charge = double.requests.filter((r) => r.path === '/v1/transactions' && r.body?.reference === paid.json.subscriptionTransactionId);
    expect(charge).toHaveLength(1);
    expect(charge[0]!.body).not.toHaveProperty('acceptance_token');
    double.finalize(paid.json.transactionId);
    expect((await call(GET_PAYMENT, { params: { token: link.token, transactionId: paid.json.subscriptionTransactionId } })).json.status).toBe('DECLINED');

    // The page's pair was spent: sent again, Wompi refuses it and nothing is charged.
    const approved = await cardToken(link);
    const reused = await pay(link.token, { method: 'CARD', cardToken: approved.id, cardLast4: '4242', ...first });
    expect(reused.json).toMatchObject({ status: 'ERROR', transactionId: null });
    expect(double.requests.at(-2)).toMatchObject({ path: '/v1/payment_sources', status: 422, body: { acceptance_token: first.acceptanceToken } });
    // A new pair for the retry: it goes through.
    const retry = await pay(link.token, { method: 'CARD', cardToken: approved.id, cardLast4: '4242', ...(await link.consent()) });
    expect(retry.json.status).toBe('PENDING');
    approve(retry.json.transactionId);
    expect((await event(link.merchant.merchantId, double.buildEvent(retry.json.transactionId))).json.outcome).toBe('settled');
    expect(await link.plan()).toMatchObject({ status: 'ACTIVE', paymentMethodToken: expect.stringMatching(/^wompi_source_CARD_\d+$/) });
  });

  it('a RECURRING first payment whose reply from Wompi is lost still activates the plan with its saved source, and the renewal charges it', async () => {
    const link = await wompiLink();
    const token = await cardToken(link);
    double.dropReply('POST', '/v1/transactions');
    const paid = await pay(link.token, { method: 'CARD', cardToken: token.id, cardLast4: '4242', ...(await link.consent()) });
    // Found by our reference after the lost reply (docs/settlement.md).
    expect(paid.json).toMatchObject({ status: 'PENDING', transactionId: expect.stringMatching(/^\d+(-\d+)+$/) });
    const sourceId = double.transactions.get(paid.json.transactionId)!.payment_source_id;
    expect(await txnOf(paid.json.subscriptionTransactionId)).toMatchObject({ paymentMethodToken: `wompi_source_CARD_${sourceId}` });

    // The event settles it: the plan is active on the saved source.
    approve(paid.json.transactionId);
    expect((await event(link.merchant.merchantId, double.buildEvent(paid.json.transactionId))).json.outcome).toBe('settled');
    const plan = await link.plan();
    expect(plan).toMatchObject({ status: 'ACTIVE', paymentMethodToken: `wompi_source_CARD_${sourceId}` });
    await database.db.update(subscriptionPlans).set({ nextChargeDate: new Date(Date.now() - 1000) }).where(eq(subscriptionPlans.id, plan.id));
    await runRenewalSweep(database.db, merchantProcessors(database.db), { now: new Date() });
    const renewal = (await database.db.select().from(transactions).where(and(eq(transactions.planId, plan.id), eq(transactions.kind, 'RENEWAL'))))[0]!;
    expect(renewal).toMatchObject({ status: 'PENDING', gatewayTransactionId: expect.stringMatching(/^\d+(-\d+)+$/) });
    expect(double.transactions.get(renewal.gatewayTransactionId!)).toMatchObject({ payment_source_id: sourceId, recurrent: true });
  });

  it('the event that arrives before the reply settles the first payment with its saved source', async () => {
    const link = await wompiLink();
    const token = await cardToken(link);
    double.dropReply('POST', '/v1/transactions');
    double.dropReply('GET', '/v1/transactions');
    const paid = await pay(link.token, { method: 'CARD', cardToken: token.id, cardLast4: '4242', ...(await link.consent()) });
    // Neither the reply nor the lookup answered: PENDING without Wompi's id, for the settler.
    expect(paid.json).toMatchObject({ status: 'PENDING', transactionId: null });
    const gatewayId = [...double.transactions.values()].find((t) => t.reference === paid.json.subscriptionTransactionId)!.id;
    approve(gatewayId);
    expect((await event(link.merchant.merchantId, double.buildEvent(gatewayId))).json.outcome).toBe('settled');
    expect(await link.plan()).toMatchObject({ status: 'ACTIVE', paymentMethodToken: expect.stringMatching(/^wompi_source_CARD_\d+$/) });
  });

  async function approvedCharge() {
    const link = await wompiLink();
    const token = await cardToken(link);
    const paid = await pay(link.token, { method: 'CARD', cardToken: token.id, cardLast4: '4242', ...(await link.consent()) });
    approve(paid.json.transactionId);
    await event(link.merchant.merchantId, double.buildEvent(paid.json.transactionId));
    expect((await txnOf(paid.json.subscriptionTransactionId)).status).toBe('APPROVED');
    return { link, txnId: paid.json.subscriptionTransactionId as string, gatewayId: paid.json.transactionId as string };
  }
  const voidedEvents = async (planId: string) => (await eventsOf(planId)).filter((e) => e.type === 'subscription.charge.voided');
  const voidThroughApi = (link: Awaited<ReturnType<typeof wompiLink>>, txnId: string) =>
    call(VOID, { params: { subscriptionTransactionId: txnId }, headers: link.merchant.headers, body: {} });

  it('a void through our API: Wompi\'s reply (the void APPROVED, the charge still APPROVED inside) is a success; its VOIDED event adds nothing', async () => {
    const { link, txnId, gatewayId } = await approvedCharge();
    const res = await voidThroughApi(link, txnId);
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('VOIDED');
    const reply = double.requests.filter((r) => r.path === `/v1/transactions/${gatewayId}/void`);
    expect(reply).toHaveLength(1);
    double.transactions.get(gatewayId)!.status = 'VOIDED';
    expect((await event(link.merchant.merchantId, double.buildEvent(gatewayId))).json.outcome).toBe('already_settled');
    expect(await txnOf(txnId)).toMatchObject({ status: 'VOIDED' });
    expect(await voidedEvents(link.subscriptionPlanId)).toHaveLength(1);
  });

  it('a void Wompi answers PENDING is asked again until the charge reads VOIDED; one Wompi refuses is a 409', async () => {
    const pending = await approvedCharge();
    double.setVoidReplies(['PENDING']);
    const res = await voidThroughApi(pending.link, pending.txnId);
    expect(res.status).toBe(200);
    expect(double.requests.filter((r) => r.method === 'GET' && r.path === `/v1/transactions/${pending.gatewayId}`).at(-1)!.authorization).toBe(`Bearer ${pending.link.keys.privateKey}`);
    expect(await voidedEvents(pending.link.subscriptionPlanId)).toHaveLength(1);

    const refused = await approvedCharge();
    double.setVoidReplies(['DECLINED']);
    const no = await voidThroughApi(refused.link, refused.txnId);
    expect(no.status).toBe(409);
    expect(await txnOf(refused.txnId)).toMatchObject({ status: 'APPROVED' });
    expect(await voidedEvents(refused.link.subscriptionPlanId)).toHaveLength(0);
  });

  it('a void made in Wompi\'s dashboard arrives as an event: APPROVED → VOIDED with one subscription.charge.voided however often Wompi sends it', async () => {
    const { link, txnId, gatewayId } = await approvedCharge();
    double.transactions.get(gatewayId)!.status = 'VOIDED';
    const voided = double.buildEvent(gatewayId);
    expect((await event(link.merchant.merchantId, voided)).json.outcome).toBe('settled');
    expect((await event(link.merchant.merchantId, voided)).json.outcome).toBe('already_settled');
    expect(await txnOf(txnId)).toMatchObject({ status: 'VOIDED' });
    expect(await voidedEvents(link.subscriptionPlanId)).toHaveLength(1);
    // Voided already: our API says so.
    expect((await voidThroughApi(link, txnId)).status).toBe(409);
  });
});

describe('Nequi subscriptions settle by event too (docs/processors.md#nequi-subscriptions)', () => {
  const approve = (gatewayId: string) => void (double.transactions.get(gatewayId)!.status = 'APPROVED');
  const payNequi = async (link: Awaited<ReturnType<typeof wompiLink>>, phone: string) => {
    const token = await link.client.tokenizeNequi(phone);
    const res = await pay(link.token, { method: 'NEQUI', phoneNumber: phone, nequiToken: token.id, ...(await link.consent()) });
    return { token, res };
  };
  const sourcesFor = (token: string) => double.requests.filter((r) => r.path === '/v1/payment_sources' && r.body?.token === token);

  it('the page posts at once; nequi_token.updated (APPROVED) makes the source and charges it, with no page polling', async () => {
    const link = await wompiLink();
    const { token, res } = await payNequi(link, '3991111111');
    // Waiting for the payer in the app: PENDING, nothing charged, the pair not spent yet.
    expect(res.json).toMatchObject({ status: 'PENDING', transactionId: null });
    expect(sourcesFor(token.id)).toEqual([]);

    double.decideNequi(token.id);
    const approved = double.buildNequiEvent(token.id);
    expect((await event(link.merchant.merchantId, approved)).json.outcome).toBe('settled');
    expect(sourcesFor(token.id)).toHaveLength(1);
    expect(sourcesFor(token.id)[0]).toMatchObject({ status: 201, body: { type: 'NEQUI', acceptance_token: expect.any(String) } });
    const txn = await txnOf(res.json.subscriptionTransactionId);
    expect(txn).toMatchObject({ status: 'PENDING', gatewayTransactionId: expect.stringMatching(/^\d+(-\d+)+$/), paymentMethodToken: expect.stringMatching(/^wompi_source_NEQUI_\d+$/) });
    // Wompi retries: the wait is gone, nothing happens twice.
    expect((await event(link.merchant.merchantId, approved)).json.outcome).toBe('ignored');
    expect(sourcesFor(token.id)).toHaveLength(1);

    approve(txn.gatewayTransactionId!);
    expect((await event(link.merchant.merchantId, double.buildEvent(txn.gatewayTransactionId!))).json.outcome).toBe('settled');
    expect(await link.plan()).toMatchObject({ status: 'ACTIVE', paymentMethodToken: txn.paymentMethodToken });
  });

  it('a payer who refuses in the app declines the attempt (no charge reached Wompi) and the link can be paid again', async () => {
    const link = await wompiLink();
    const { token, res } = await payNequi(link, '3992222222');
    double.decideNequi(token.id);
    expect((await event(link.merchant.merchantId, double.buildNequiEvent(token.id))).json.outcome).toBe('settled');
    expect(await txnOf(res.json.subscriptionTransactionId)).toMatchObject({ status: 'DECLINED', gatewayTransactionId: null, failureCode: 'card_not_supported' });
    expect(sourcesFor(token.id)).toEqual([]);
    expect((await link.plan()).status).toBe('PENDING_ACTIVATION');
    const again = await payNequi(link, '3991111111');
    expect(again.res.json.status).toBe('PENDING');
  });

  it('with the event lost, the settler asks about the token; a wait past its consent\'s hour ends as ERROR', async () => {
    const link = await wompiLink();
    const { token, res } = await payNequi(link, '3991111111');
    const later = new Date(Date.now() + 3 * 60_000);
    expect((await runSettler(database.db, { now: later })).stillPending).toBeGreaterThanOrEqual(1);
    expect(await txnOf(res.json.subscriptionTransactionId)).toMatchObject({ status: 'PENDING', gatewayTransactionId: null });
    double.decideNequi(token.id);
    await runSettler(database.db, { now: new Date(later.getTime() + 11 * 60_000) });
    expect(await txnOf(res.json.subscriptionTransactionId)).toMatchObject({ gatewayTransactionId: expect.stringMatching(/^\d+(-\d+)+$/) });

    const stale = await wompiLink();
    const waiting = await payNequi(stale, '3991111111');
    await runSettler(database.db, { now: new Date(Date.now() + 61 * 60_000) });
    expect(await txnOf(waiting.res.json.subscriptionTransactionId)).toMatchObject({ status: 'ERROR', gatewayTransactionId: null });
    expect(sourcesFor(waiting.token.id)).toEqual([]);
  });
});
