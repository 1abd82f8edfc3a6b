import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWompiDouble, testWompiKeys, type WompiDouble } from '@/test/wompi-double';
import { integritySignature } from './signatures';
import { ProcessorRateLimited } from '../processor';
import { createWompiClient, retryAfterMs, WompiError } from './client';
import { createWompiProcessor } from './processor';

// The Wompi processor against the local double of Wompi's API (test/wompi-double.ts).

let double: WompiDouble;
const keys = testWompiKeys();
let processor: ReturnType<typeof createWompiProcessor>;
let client: ReturnType<typeof createWompiClient>;

beforeAll(async () => {
  double = await startWompiDouble({ settleMs: 60_000 });
  double.addMerchant(keys);
  processor = createWompiProcessor(keys, { apiUrl: double.url });
  client = createWompiClient({ baseUrl: double.url, publicKey: keys.publicKey });
});
afterAll(() => double.close());

let counter = 0;
const reference = () => `txn_test${Date.now()}${counter++}`;

async function consent() {
  const merchant = await client.merchant();
  return { acceptanceToken: merchant.presigned_acceptance.acceptance_token, personalDataToken: merchant.presigned_personal_data_auth.acceptance_token };
}

const request = async (instrument: Parameters<typeof processor.pay>[0]['instrument'], saveForRenewals: boolean, ref = reference()) => ({
  amount: 150000,
  currency: 'COP' as const,
  reference: ref,
  customerEmail: 'ana@example.com',
  instrument,
  saveForRenewals,
  consent: await consent(),
  description: 'Plan mensual del gimnasio con clases ilimitadas',
  redirectUrl: 'http://127.0.0.1:1/pay/abcdefghij',
});

const lastRequest = (path: string) => double.requests.filter((r) => r.path === path).at(-1)!;

describe('Wompi processor', () => {
  it('charges a browser card token directly for a single payment, signed, with both acceptance tokens, PENDING first', async () => {
    const token = await client.tokenizeCard({ number: '4242424242424242', cvc: '123', exp_month: '12', exp_year: '30', card_holder: 'Ana Gómez' });
    const req = await request({ type: 'CARD_TOKEN', token: token.id, brand: 'visa', last4: token.last_four }, false);
    const result = await processor.pay(req);
    expect(result).toMatchObject({ status: 'PENDING', paymentMethodToken: null });
    expect(result.gatewayTransactionId).toMatch(/^\d+(-\d+)+$/);
    const sent = lastRequest('/v1/transactions');
    expect(sent.authorization).toBe(`Bearer ${keys.privateKey}`);
    expect(sent.body).toMatchObject({
      reference: req.reference,
      amount_in_cents: 150000,
      currency: 'COP',
      signature: integritySignature({ reference: req.reference, amountInCents: 150000, currency: 'COP' }, keys.integritySecret),
      acceptance_token: req.consent.acceptanceToken,
      accept_personal_auth: req.consent.personalDataToken,
      payment_method: { type: 'CARD', installments: 1, token: token.id },
    });
    double.transactions.get(result.gatewayTransactionId)!.status = 'APPROVED';
    expect(await processor.retrieve(result.gatewayTransactionId)).toEqual({ status: 'APPROVED', gatewayTransactionId: result.gatewayTransactionId });
    expect(await processor.findByReference(req.reference)).toMatchObject({ status: 'APPROVED', gatewayTransactionId: result.gatewayTransactionId });
    expect(await processor.findByReference('txn_neverSent')).toBeNull();
  });

  it('saves a payment source on a first recurring payment, and renewals charge it with recurrent: true under their own reference', async () => {
    const token = await client.tokenizeCard({ number: '4242424242424242', cvc: '123', exp_month: '12', exp_year: '30', card_holder: 'Ana Gómez' });
    const first = await processor.pay(await request({ type: 'CARD_TOKEN', token: token.id, brand: 'visa', last4: '4242' }, true));
    expect(first.paymentMethodToken).toMatch(/^wompi_source_CARD_\d+$/);
    expect(lastRequest('/v1/payment_sources').body).toMatchObject({ type: 'CARD', token: token.id, acceptance_token: expect.any(String) });
    expect(lastRequest('/v1/transactions').body).toMatchObject({ payment_source_id: Number(first.paymentMethodToken!.split('_').at(-1)) });
    expect(lastRequest('/v1/transactions').body).not.toHaveProperty('acceptance_token');
    expect(lastRequest('/v1/transactions').body).not.toHaveProperty('recurrent');

    const renewalRef = reference();
    const infoCalls = double.requests.filter((r) => r.path.startsWith('/v1/merchants')).length;
    const renewal = await processor.charge({ amount: 150000, currency: 'COP', reference: renewalRef, paymentMethod: first.paymentMethodToken!, initiator: 'recurring' });
    expect(double.requests.filter((r) => r.path.startsWith('/v1/merchants')).length).toBe(infoCalls);
    expect(renewal.status).toBe('PENDING');
    expect(lastRequest('/v1/transactions').body).toMatchObject({ recurrent: true, reference: renewalRef });
    // A saved source carries no acceptance tokens, and no merchants/info call was made for it.
    expect(lastRequest('/v1/transactions').body).not.toHaveProperty('acceptance_token');
    expect(lastRequest('/v1/transactions').body).not.toHaveProperty('customer_email');
    // A retried renewal reuses its reference: Wompi refuses a second charge.
    await expect(processor.charge({ amount: 150000, currency: 'COP', reference: renewalRef, paymentMethod: first.paymentMethodToken!, initiator: 'recurring' })).rejects.toThrow(WompiError);
  });

  it('pays Nequi by phone for a single payment and by an approved token saved as a source for a subscription', async () => {
    const single = await processor.pay(await request({ type: 'NEQUI', phoneNumber: '3991111111' }, false));
    expect(single.status).toBe('PENDING');
    expect(lastRequest('/v1/transactions').body).toMatchObject({ payment_method: { type: 'NEQUI', phone_number: '3991111111' } });

    const nequi = await client.tokenizeNequi('3991111111');
    // Not yet approved in the app: Wompi refuses to save it.
    await expect(processor.pay(await request({ type: 'NEQUI_TOKEN', token: nequi.id, phoneNumber: '3991111111' }, true))).rejects.toMatchObject({ type: 'UNPROCESSABLE' });
    double.decideNequi(nequi.id);
    expect((await client.nequiToken(nequi.id)).status).toBe('APPROVED');
    const saved = await processor.pay(await request({ type: 'NEQUI_TOKEN', token: nequi.id, phoneNumber: '3991111111' }, true));
    expect(saved.paymentMethodToken).toMatch(/^wompi_source_NEQUI_\d+$/);
  });

  it('sends PSE with person/company, document, bank, the phone with its country code and a description of at most 30 characters; the bank URL comes with the final status', async () => {
    const result = await processor.pay(
      await request({ type: 'PSE', userType: 'COMPANY', legalIdType: 'NIT', legalId: '900123456', institutionCode: '1', fullName: 'Acme SAS', phoneNumber: '3001234567' }, false),
    );
    expect(result.status).toBe('PENDING');
    expect(result).not.toHaveProperty('redirectUrl');
    double.finalize(result.gatewayTransactionId);
    expect(await processor.retrieve(result.gatewayTransactionId)).toMatchObject({ status: 'APPROVED', redirectUrl: expect.stringMatching(/\/bank\//) });
    const body = lastRequest('/v1/transactions').body!;
    expect(body).toMatchObject({
      payment_method: { type: 'PSE', user_type: 1, user_legal_id_type: 'NIT', user_legal_id: '900123456', financial_institution_code: '1' },
      customer_data: { phone_number: '573001234567', full_name: 'Acme SAS' },
      redirect_url: 'http://127.0.0.1:1/pay/abcdefghij',
    });
    expect(String((body.payment_method as Record<string, unknown>).payment_description).length).toBeLessThanOrEqual(30);
    expect(await processor.pseInstitutions()).toEqual([
      { code: '1', name: 'Banco que aprueba' },
      { code: '2', name: 'Banco que declina' },
      { code: '3', name: 'Banco que simula un error' },
    ]);
  });

  it('reads a void from the void\'s own status: APPROVED is done (the charge inside still APPROVED), PENDING is asked again, DECLINED refused', async () => {
    const approvedCharge = async () => {
      const token = await client.tokenizeCard({ number: '4242424242424242', cvc: '123', exp_month: '12', exp_year: '30', card_holder: 'Ana Gómez' });
      const paid = await processor.pay(await request({ type: 'CARD_TOKEN', token: token.id, brand: 'visa', last4: '4242' }, false));
      double.transactions.get(paid.gatewayTransactionId)!.status = 'APPROVED';
      return paid.gatewayTransactionId;
    };
    const done = await approvedCharge();
    expect(await processor.void(done)).toEqual({ status: 'VOIDED' });
    expect(double.transactions.get(done)!.status).toBe('APPROVED');
    double.dashboardVoid(done);
    await expect(processor.void(done)).rejects.toMatchObject({ status: 422 });

    const slow = await approvedCharge();
    double.setVoidReplies(['PENDING']);
    expect(await processor.void(slow)).toEqual({ status: 'VOIDED' });
    const refused = await approvedCharge();
    double.setVoidReplies(['DECLINED']);
    expect(await processor.void(refused)).toEqual({ status: 'ERROR' });
    await expect(processor.void('99999-1-00000')).rejects.toMatchObject({ status: 404, type: 'NOT_FOUND_ERROR' });
  });

  it('saves a browser card token or an approved Nequi token as a payment source without a charge; renewals charge it', async () => {
    const save = async (instrument: Parameters<typeof processor.pay>[0]['instrument'], given = true) =>
      processor.saveMethod!({ instrument, customerEmail: 'ana@example.com', consent: given ? await consent() : undefined });
    const charges = double.requests.filter((r) => r.path === '/v1/transactions').length;
    const token = await client.tokenizeCard({ number: '4242424242424242', cvc: '123', exp_month: '12', exp_year: '30', card_holder: 'Ana Gómez' });
    const saved = await save({ type: 'CARD_TOKEN', token: token.id, brand: 'visa', last4: '4242' });
    expect(saved).toEqual({ ok: true, token: expect.stringMatching(/^wompi_source_CARD_\d+$/) });
    expect(lastRequest('/v1/payment_sources').body).toMatchObject({ type: 'CARD', token: token.id, customer_email: 'ana@example.com', acceptance_token: expect.any(String), accept_personal_auth: expect.any(String) });
    expect(double.requests.filter((r) => r.path === '/v1/transactions').length).toBe(charges);
    const renewal = await processor.charge({ amount: 190000, currency: 'COP', reference: reference(), paymentMethod: saved.ok ? saved.token : '', initiator: 'recurring' });
    expect(lastRequest('/v1/transactions').body).toMatchObject({ payment_source_id: Number(saved.ok && saved.token.split('_').at(-1)), recurrent: true });
    expect(renewal.status).toBe('PENDING');

    const nequi = await client.tokenizeNequi('3991111111');
    // Not approved yet in the app: Wompi refuses the source, and nothing is saved.
    expect(await save({ type: 'NEQUI_TOKEN', token: nequi.id, phoneNumber: '3991111111' })).toEqual({ ok: false, declineReason: 'card_not_supported' });
    double.decideNequi(nequi.id);
    expect((await client.nequiToken(nequi.id)).status).toBe('APPROVED');
    expect(await save({ type: 'NEQUI_TOKEN', token: nequi.id, phoneNumber: '3991111111' })).toEqual({ ok: true, token: expect.stringMatching(/^wompi_source_NEQUI_\d+$/) });
    const declined = await client.tokenizeNequi('3992222222');
    double.decideNequi(declined.id);
    expect((await client.nequiToken(declined.id)).status).toBe('DECLINED');
    expect(await save({ type: 'NEQUI_TOKEN', token: declined.id, phoneNumber: '3992222222' })).toEqual({ ok: false, declineReason: 'card_not_supported' });

    expect(await save({ type: 'CARD_TOKEN', token: 'tok_forged', brand: 'visa', last4: '4242' })).toEqual({ ok: false, declineReason: 'card_not_supported' });
    await expect(save({ type: 'CARD_TOKEN', token: token.id, brand: 'visa', last4: '4242' }, false)).rejects.toThrow(/acceptance tokens/);
    const sourcesSoFar = double.requests.filter((r) => r.path === '/v1/payment_sources').length;
    expect(await save({ type: 'NEQUI', phoneNumber: '3991111111' })).toEqual({ ok: false, declineReason: 'card_not_supported' });
    expect(await save({ type: 'CARD', card: { number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123', holder: 'Ana', brand: 'visa', last4: '4242' } })).toEqual({ ok: false, declineReason: 'card_not_supported' });
    expect(double.requests.filter((r) => r.path === '/v1/payment_sources').length).toBe(sourcesSoFar);
    // A wrong key is ours to fix, not the customer's decline.
    const wrong = createWompiProcessor({ ...keys, privateKey: 'prv_test_wrong' }, { apiUrl: double.url });
    await expect(wrong.saveMethod!({ instrument: { type: 'CARD_TOKEN', token: token.id, brand: 'visa', last4: '4242' }, customerEmail: 'ana@example.com', consent: await consent() })).rejects.toMatchObject({ status: 401 });
  });

  it('turns a 429 on a renewal into ProcessorRateLimited with Retry-After, never a decline; the same reference charges once the limit lifts', async () => {
    const first = double.addSources(keys.publicKey, 1);
    const source = `wompi_source_CARD_${first}`;
    const ref = reference();
    double.rateLimit(keys.publicKey, 60_000, 7);
    const refused = await processor.charge({ amount: 150000, currency: 'COP', reference: ref, paymentMethod: source, initiator: 'recurring' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProcessorRateLimited);
    expect((refused as ProcessorRateLimited).retryAfterMs).toBe(7000);
    expect(double.refusedForRate(keys.publicKey)).toBe(1);
    // Refused before it was handled: the reference was not used up.
    expect(await processor.findByReference(ref)).toBeNull();
    double.rateLimit(keys.publicKey, 0);
    expect(await processor.charge({ amount: 150000, currency: 'COP', reference: ref, paymentMethod: source, initiator: 'recurring' })).toMatchObject({ status: 'PENDING' });
  });

  it('reads Retry-After in seconds or as an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('0.5')).toBe(500);
    expect(retryAfterMs(new Date(Date.UTC(2027, 0, 1, 0, 0, 10)).toUTCString(), Date.UTC(2027, 0, 1))).toBe(10_000);
    expect(retryAfterMs('soon')).toBeNull();
    expect(retryAfterMs(null)).toBeNull();
  });

  it('maps declines and errors, and surfaces Wompi error replies (a wrong key, a missing consent)', async () => {
    const declined = await client.tokenizeCard({ number: '4111111111111111', cvc: '123', exp_month: '12', exp_year: '30', card_holder: 'Ana Gómez' });
    const d = await processor.pay(await request({ type: 'CARD_TOKEN', token: declined.id, brand: 'visa', last4: '1111' }, false));
    double.transactions.get(d.gatewayTransactionId)!.status = 'DECLINED';
    expect((await processor.retrieve(d.gatewayTransactionId)).status).toBe('DECLINED');
    double.transactions.get(d.gatewayTransactionId)!.status = 'ERROR';
    expect(await processor.retrieve(d.gatewayTransactionId)).toMatchObject({ status: 'ERROR', declineReason: 'processor_error' });

    const wrong = createWompiProcessor({ ...keys, privateKey: 'prv_test_wrong' }, { apiUrl: double.url });
    await expect(wrong.findByReference('txn_x')).rejects.toMatchObject({ status: 401, type: 'INVALID_ACCESS_TOKEN' });
    const noConsent = { ...(await request({ type: 'NEQUI', phoneNumber: '3991111111' }, false)), consent: { acceptanceToken: 'forged', personalDataToken: 'forged' } };
    await expect(processor.pay(noConsent)).rejects.toMatchObject({ status: 422, type: 'INPUT_VALIDATION_ERROR' });
    await expect(processor.pay({ ...noConsent, consent: undefined })).rejects.toThrow(/acceptance tokens/);
  });

  it('fetches consent from GET /merchants/info with the key in a header, and from the old path only when that answers 404', async () => {
    const seen: string[] = [];
    const withInfo = (status: number | null): typeof fetch => async (input, init) => {
      seen.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
      if (status !== null && String(input).endsWith('/merchants/info')) return new Response('{"error":{"type":"X"}}', { status });
      return fetch(input, init);
    };
    const info = await createWompiClient({ baseUrl: double.url, publicKey: keys.publicKey, fetch: withInfo(null) }).merchant();
    expect(info.presigned_acceptance.type).toBe('END_USER_POLICY');
    expect(double.requests.at(-1)).toMatchObject({ path: '/v1/merchants/info', authorization: null, merchantKeyHeader: keys.publicKey });
    expect(seen).toEqual(['GET /v1/merchants/info']);

    seen.length = 0;
    const old = await createWompiClient({ baseUrl: double.url, publicKey: keys.publicKey, fetch: withInfo(404) }).merchant();
    expect(old.presigned_personal_data_auth.type).toBe('PERSONAL_DATA_AUTH');
    expect(seen).toEqual(['GET /v1/merchants/info', `GET /v1/merchants/${keys.publicKey}`]);

    seen.length = 0;
    await expect(createWompiClient({ baseUrl: double.url, publicKey: keys.publicKey, fetch: withInfo(503) }).merchant()).rejects.toMatchObject({ status: 503 });
    expect(seen).toEqual(['GET /v1/merchants/info']);
  });
});
