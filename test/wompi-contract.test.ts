import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventChecksum, integritySignature, type WompiEvent } from '@/lib/processors/wompi/signatures';
import { CONSENT_TTL_MS, MESSAGES, startWompiDouble, testWompiKeys, type DoubleMerchant, type WompiDouble } from './wompi-double';

// The Wompi double's contract (docs/processors.md#the-wompi-double): one row per rule of the
// reference the project builds against (docs/processors.md, revised November 2026), each with the reply
// Wompi gives. A rule the double forgets fails here instead of passing silently in every test that
// uses it. Raw HTTP, no client of ours: this is what the double answers, not what we send.

interface Reply {
  status: number;
  body: { data?: Record<string, unknown>; error?: { type: string; reason?: string; messages?: Record<string, string[]>; code?: string } };
}

let double: WompiDouble;
let keys: DoubleMerchant;
const received: WompiEvent[] = [];
let receiver: http.Server;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as WompiEvent;
      received.push({ ...event, header: req.headers['x-event-checksum'] } as WompiEvent);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  double = await startWompiDouble({ settleMs: 30 });
  keys = { ...testWompiKeys(), eventsUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events` };
  double.addMerchant(keys);
});
afterAll(async () => {
  await double.close();
  await new Promise((resolve) => receiver.close(resolve));
});

async function api(method: 'GET' | 'POST', path: string, options: { key?: string | null; headers?: Record<string, string>; body?: unknown } = {}): Promise<Reply> {
  const key = options.key === undefined ? keys.privateKey : options.key;
  const res = await fetch(`${double.url}${path}`, {
    method,
    headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...(options.body ? { 'Content-Type': 'application/json' } : {}), ...options.headers },
    body: options.body ? JSON.stringify(options.body) : undefined,
  });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as Reply['body'] };
}

async function pair() {
  const info = await api('GET', '/merchants/info', { key: null, headers: { 'x-merchant-public-key': keys.publicKey } });
  const data = info.body.data as unknown as { presigned_acceptance: { acceptance_token: string }; presigned_personal_data_auth: { acceptance_token: string } };
  return { acceptance_token: data.presigned_acceptance.acceptance_token, accept_personal_auth: data.presigned_personal_data_auth.acceptance_token };
}

async function cardToken(number = '4242424242424242') {
  const res = await api('POST', '/tokens/cards', { key: keys.publicKey, body: { number, cvc: '123', exp_month: '08', exp_year: '30', card_holder: 'Ana Gómez' } });
  return (res.body.data as unknown as { id: string }).id;
}

let counter = 0;
const reference = () => `txn_contract${Date.now()}${counter++}`;
const signed = (ref: string, amount = 150000) => ({
  reference: ref,
  amount_in_cents: amount,
  currency: 'COP',
  signature: integritySignature({ reference: ref, amountInCents: amount, currency: 'COP' }, keys.integritySecret),
  customer_email: 'ana@example.com',
});

async function cardCharge(extra: Record<string, unknown> = {}, number = '4242424242424242') {
  return api('POST', '/transactions', { body: { ...signed(reference()), ...(await pair()), payment_method: { type: 'CARD', installments: 1, token: await cardToken(number) }, ...extra } });
}

async function source() {
  const res = await api('POST', '/payment_sources', { body: { type: 'CARD', token: await cardToken(), customer_email: 'ana@example.com', ...(await pair()) } });
  return res.body.data!.id as number;
}

const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
  await expect.poll(async () => done(await read()), { timeout: 5000 }).toBe(true);
  return read();
};
const readTxn = async (id: string) => (await api('GET', `/transactions/${id}`)).body.data!;

const invalid = (field: string, message?: string) => ({ error: { type: 'INPUT_VALIDATION_ERROR', messages: { [field]: message ? [message] : [expect.any(String)] } } });

/** One row per rule: what is done, and the reply Wompi gives. */
const RULES: [rule: string, run: () => Promise<Reply>, status: number, body: unknown][] = [
  // Acceptance tokens (revised)
  ['consent: GET /merchants/info with x-merchant-public-key (no Authorization) gives both documents and their tokens', () => api('GET', '/merchants/info', { key: null, headers: { 'x-merchant-public-key': keys.publicKey } }), 200, {
    data: expect.objectContaining({
      presigned_acceptance: { acceptance_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/), permalink: expect.stringMatching(/\.pdf$/), type: 'END_USER_POLICY' },
      presigned_personal_data_auth: { acceptance_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/), permalink: expect.stringMatching(/\.pdf$/), type: 'PERSONAL_DATA_AUTH' },
    }),
  }],
  ['consent: the older path GET /merchants/{public_key} gives the same body', () => api('GET', `/merchants/${keys.publicKey}`, { key: null }), 200, {
    data: expect.objectContaining({ presigned_acceptance: expect.objectContaining({ type: 'END_USER_POLICY' }), presigned_personal_data_auth: expect.objectContaining({ type: 'PERSONAL_DATA_AUTH' }) }),
  }],
  ['consent: an unknown public key is 404 NOT_FOUND_ERROR', () => api('GET', '/merchants/info', { key: null, headers: { 'x-merchant-public-key': 'pub_test_unknown0' } }), 404, { error: { type: 'NOT_FOUND_ERROR', reason: expect.any(String) } }],
  ['consent: a malformed public key is 422 INPUT_VALIDATION_ERROR', () => api('GET', '/merchants/info', { key: null, headers: { 'x-merchant-public-key': 'not a key' } }), 422, { error: expect.objectContaining({ type: 'INPUT_VALIDATION_ERROR' }) }],
  ['consent: each GET returns new tokens', async () => {
    const [a, b] = [await pair(), await pair()];
    return { status: a.acceptance_token !== b.acceptance_token && a.accept_personal_auth !== b.accept_personal_auth ? 200 : 500, body: {} };
  }, 200, {}],
  ['consent: a token is short-lived: its JWT expires an hour after issue, and an expired one is refused', async () => {
    const tokens = await pair();
    const exp = (JSON.parse(Buffer.from(tokens.acceptance_token.split('.')[1]!, 'base64url').toString()) as { exp: number }).exp * 1000;
    expect(Math.abs(exp - (Date.now() + CONSENT_TTL_MS))).toBeLessThan(5000);
    double.advanceClock(CONSENT_TTL_MS + 1000);
    try {
      return await api('POST', '/payment_sources', { body: { type: 'CARD', token: await cardToken(), customer_email: 'ana@example.com', ...tokens } });
    } finally {
      double.advanceClock(-(CONSENT_TTL_MS + 1000));
    }
  }, 422, invalid('acceptance_token', MESSAGES.consentExpired)],
  ['consent: a second use of a token is 422 "El token de aceptación ya fue usado"', async () => {
    const tokens = await pair();
    await api('POST', '/payment_sources', { body: { type: 'CARD', token: await cardToken(), customer_email: 'ana@example.com', ...tokens } });
    return api('POST', '/transactions', { body: { ...signed(reference()), ...tokens, payment_method: { type: 'CARD', installments: 1, token: await cardToken() } } });
  }, 422, invalid('acceptance_token', MESSAGES.consentUsed)],
  ['consent: a request refused with 401 does not spend the pair', async () => {
    const tokens = await pair();
    const body = { type: 'CARD', token: await cardToken(), customer_email: 'ana@example.com', ...tokens };
    expect((await api('POST', '/payment_sources', { key: 'prv_test_wrong', body })).status).toBe(401);
    return api('POST', '/payment_sources', { body });
  }, 201, { data: expect.objectContaining({ status: 'AVAILABLE' }) }],
  ['consent: a 422 for a bad signature spends the pair', async () => {
    const tokens = await pair();
    const ref = reference();
    const body = { ...signed(ref), ...tokens, payment_method: { type: 'CARD', installments: 1, token: await cardToken() } };
    expect(await api('POST', '/transactions', { body: { ...body, signature: 'f'.repeat(64) } })).toMatchObject({ status: 422, body: invalid('signature', MESSAGES.signature) });
    return api('POST', '/transactions', { body });
  }, 422, invalid('acceptance_token', MESSAGES.consentUsed)],
  ['consent: a transaction paid with a token or a method carries both tokens (none: 422)', async () => api('POST', '/transactions', { body: { ...signed(reference()), payment_method: { type: 'CARD', installments: 1, token: await cardToken() } } }), 422, invalid('acceptance_token')],
  ['consent: a charge of a saved payment_source_id carries none', async () => api('POST', '/transactions', { body: { ...signed(reference()), payment_source_id: await source(), payment_method: { installments: 1 }, recurrent: true } }), 201, { data: expect.objectContaining({ status: 'PENDING' }) }],
  ['consent: validation in order (format, acceptance token, signature), one field at a time', async () => {
    const tokens = await pair();
    await api('POST', '/payment_sources', { body: { type: 'CARD', token: await cardToken(), customer_email: 'ana@example.com', ...tokens } });
    const body = { ...signed(reference()), ...tokens, signature: 'f'.repeat(64), payment_method: { type: 'CARD', installments: 1, token: await cardToken() } };
    expect(await api('POST', '/transactions', { body: { ...body, amount_in_cents: 'mil' } })).toMatchObject({ status: 422, body: invalid('amount_in_cents') });
    expect(Object.keys((await api('POST', '/transactions', { body: { ...body, amount_in_cents: 'mil', currency: 'USD' } })).body.error!.messages!)).toEqual(['amount_in_cents']);
    expect(await api('POST', '/transactions', { body })).toMatchObject({ status: 422, body: invalid('acceptance_token', MESSAGES.consentUsed) });
    return api('POST', '/transactions', { body: { ...body, ...(await pair()) } });
  }, 422, invalid('signature', MESSAGES.signature)],

  // Card tokens (revised)
  ['card token: 201 CREATED with the token and the card as Wompi describes it', () => api('POST', '/tokens/cards', { key: keys.publicKey, body: { number: '4242424242424242', cvc: '123', exp_month: '08', exp_year: '28', card_holder: 'José Pérez' } }), 201, {
    status: 'CREATED',
    data: expect.objectContaining({ id: expect.stringMatching(/^tok_/), brand: 'VISA', last_four: '4242', bin: '424242', exp_month: '08', exp_year: '28', card_holder: 'José Pérez', created_at: expect.any(String), expires_at: expect.any(String) }),
  }],
  ['card token: a number with spaces is 422 on number', () => api('POST', '/tokens/cards', { key: keys.publicKey, body: { number: '4242 4242 4242 4242', cvc: '123', exp_month: '08', exp_year: '28', card_holder: 'José Pérez' } }), 422, invalid('number')],
  ['card token: a number failing Luhn is 422 on number', () => api('POST', '/tokens/cards', { key: keys.publicKey, body: { number: '4242424242424241', cvc: '123', exp_month: '08', exp_year: '28', card_holder: 'José Pérez' } }), 422, invalid('number')],
  ['card token: a holder under 5 characters ("Ana") is 422 on card_holder', () => api('POST', '/tokens/cards', { key: keys.publicKey, body: { number: '4242424242424242', cvc: '123', exp_month: '08', exp_year: '28', card_holder: 'Ana' } }), 422, invalid('card_holder')],
  ['card token: an unknown public key is 404 MERCHANT_NOT_FOUND', () => api('POST', '/tokens/cards', { key: 'pub_test_nobody', body: { number: '4242424242424242', cvc: '123', exp_month: '08', exp_year: '28', card_holder: 'José Pérez' } }), 404, { error: { type: 'NOT_FOUND', reason: expect.stringMatching(/no encontrado/), code: 'MERCHANT_NOT_FOUND' } }],

  // Nequi and payment sources
  ['Nequi: a token starts PENDING; 3991111111 turns APPROVED', async () => {
    const created = await api('POST', '/tokens/nequi', { key: keys.publicKey, body: { phone_number: '3991111111' } });
    expect(created).toMatchObject({ status: 201, body: { data: { id: expect.stringMatching(/^nequi_/), status: 'PENDING', phone_number: '3991111111' } } });
    return until(() => api('GET', `/tokens/nequi/${created.body.data!.id}`, { key: keys.publicKey }), (r) => r.body.data?.status !== 'PENDING');
  }, 200, { data: expect.objectContaining({ status: 'APPROVED' }) }],
  ['Nequi: 3992222222 turns DECLINED', async () => {
    const created = await api('POST', '/tokens/nequi', { key: keys.publicKey, body: { phone_number: '3992222222' } });
    return until(() => api('GET', `/tokens/nequi/${created.body.data!.id}`, { key: keys.publicKey }), (r) => r.body.data?.status !== 'PENDING');
  }, 200, { data: expect.objectContaining({ status: 'DECLINED' }) }],
  ['payment source: with the private key, 201 with an integer id, AVAILABLE, public_data', async () => api('POST', '/payment_sources', { body: { type: 'CARD', token: await cardToken(), customer_email: 'ana@example.com', ...(await pair()) } }), 201, {
    data: expect.objectContaining({ id: expect.any(Number), type: 'CARD', status: 'AVAILABLE', public_data: { type: 'CARD' } }),
  }],
  ['payment source: the public key may not create one (403)', async () => api('POST', '/payment_sources', { key: keys.publicKey, body: { type: 'CARD', token: await cardToken(), customer_email: 'ana@example.com', ...(await pair()) } }), 403, { error: { type: 'FORBIDDEN', reason: MESSAGES.forbidden } }],
  ['payment source: a Nequi token not yet APPROVED is 422 UNPROCESSABLE', async () => {
    double.setSettleMs(60_000);
    try {
      const created = await api('POST', '/tokens/nequi', { key: keys.publicKey, body: { phone_number: '3991111111' } });
      return await api('POST', '/payment_sources', { body: { type: 'NEQUI', token: created.body.data!.id, customer_email: 'ana@example.com', ...(await pair()) } });
    } finally {
      double.setSettleMs(30);
    }
  }, 422, { error: { type: 'UNPROCESSABLE', reason: expect.any(String) } }],

  // Transactions
  ['transactions: 201 PENDING with finalized_at null, an id of hyphen-separated numbers', () => cardCharge(), 201, {
    data: expect.objectContaining({ id: expect.stringMatching(/^\d+(-\d+)+$/), status: 'PENDING', finalized_at: null }),
  }],
  ['transactions: final a moment later; 4242… APPROVED', async () => {
    const id = (await cardCharge()).body.data!.id as string;
    return { status: 200, body: { data: await until(() => readTxn(id), (d) => d.status !== 'PENDING') } };
  }, 200, { data: expect.objectContaining({ status: 'APPROVED', finalized_at: expect.any(String), status_message: null }) }],
  ['transactions: 4111… DECLINED with status_message', async () => {
    const id = (await cardCharge({}, '4111111111111111')).body.data!.id as string;
    return { status: 200, body: { data: await until(() => readTxn(id), (d) => d.status !== 'PENDING') } };
  }, 200, { data: expect.objectContaining({ status: 'DECLINED', status_message: MESSAGES.declined }) }],
  ['transactions: any other card number ERROR', async () => {
    const id = (await cardCharge({}, '4000000000000002')).body.data!.id as string;
    return { status: 200, body: { data: await until(() => readTxn(id), (d) => d.status !== 'PENDING') } };
  }, 200, { data: expect.objectContaining({ status: 'ERROR', status_message: expect.any(String) }) }],
  ['transactions: a reused reference is 422 "La referencia ya ha sido usada"', async () => {
    const ref = reference();
    await api('POST', '/transactions', { body: { ...signed(ref), ...(await pair()), payment_method: { type: 'CARD', installments: 1, token: await cardToken() } } });
    return api('POST', '/transactions', { body: { ...signed(ref), ...(await pair()), payment_method: { type: 'CARD', installments: 1, token: await cardToken() } } });
  }, 422, invalid('reference', MESSAGES.referenceUsed)],
  ['amounts: cents must end in 00 (whole pesos)', async () => api('POST', '/transactions', { body: { ...signed(reference(), 150050), ...(await pair()), payment_method: { type: 'CARD', installments: 1, token: await cardToken() } } }), 422, invalid('amount_in_cents')],
  ['amounts: the card minimum is COP 1,500', async () => api('POST', '/transactions', { body: { ...signed(reference(), 100000), ...(await pair()), payment_method: { type: 'CARD', installments: 1, token: await cardToken() } } }), 422, invalid('amount_in_cents')],
  ['read: GET /transactions/{id} answers with the private key, the public key or none', async () => {
    const id = (await cardCharge()).body.data!.id as string;
    for (const key of [keys.publicKey, null]) expect((await api('GET', `/transactions/${id}`, { key })).status).toBe(200);
    return api('GET', `/transactions/${id}`);
  }, 200, { data: expect.objectContaining({ reference: expect.stringMatching(/^txn_contract/) }) }],
  ['read: an unknown id is 404 NOT_FOUND_ERROR', () => api('GET', '/transactions/12345-1-00001'), 404, { error: { type: 'NOT_FOUND_ERROR', reason: MESSAGES.notFound } }],
  ['listing: by reference with the private key finds a charge', async () => {
    const ref = (await cardCharge()).body.data!.reference as string;
    return api('GET', `/transactions?reference=${ref}`);
  }, 200, { data: [expect.objectContaining({ reference: expect.stringMatching(/^txn_contract/) })] }],
  ['listing: the public key is 401', () => api('GET', '/transactions?reference=x', { key: keys.publicKey }), 401, { error: { type: 'INVALID_ACCESS_TOKEN', reason: expect.any(String) } }],
  ['listing: an unknown reference is data []', () => api('GET', '/transactions?reference=txn_neverSent'), 200, { data: [] }],
  ['errors: an unknown key is 401 INVALID_ACCESS_TOKEN "Llave no válida"', () => api('POST', '/tokens/nequi', { key: 'pub_test_unknown', body: { phone_number: '3991111111' } }), 401, { error: { type: 'INVALID_ACCESS_TOKEN', reason: MESSAGES.invalidKey } }],

  // Void (revised)
  ['void: the reply describes the void (APPROVED) with the charge still APPROVED inside; it turns VOIDED after, with its event', async () => {
    const id = (await cardCharge()).body.data!.id as string;
    await until(() => readTxn(id), (d) => d.status === 'APPROVED');
    const reply = await api('POST', `/transactions/${id}/void`, { body: {} });
    await until(() => readTxn(id), (d) => d.status === 'VOIDED');
    await expect.poll(() => received.some((e) => transactionOf(e)?.id === id && transactionOf(e)?.status === 'VOIDED')).toBe(true);
    return reply;
  }, 200, { data: expect.objectContaining({ status: 'APPROVED', status_message: null, transaction: expect.objectContaining({ status: 'APPROVED' }) }) }],
  ['void: an unknown id is 404', () => api('POST', '/transactions/12345-1-00001/void', { body: {} }), 404, { error: { type: 'NOT_FOUND_ERROR', reason: expect.any(String) } }],
  ['void: card charges only', async () => {
    const id = (await api('POST', '/transactions', { body: { ...signed(reference()), ...(await pair()), payment_method: { type: 'NEQUI', phone_number: '3991111111' } } })).body.data!.id as string;
    await until(() => readTxn(id), (d) => d.status === 'APPROVED');
    return api('POST', `/transactions/${id}/void`, { body: {} });
  }, 422, { error: { type: 'UNPROCESSABLE', reason: expect.any(String) } }],

  // PSE (revised)
  ['PSE: the bank list needs a key (401 without)', () => api('GET', '/pse/financial_institutions', { key: null }), 401, { error: expect.objectContaining({ type: 'INVALID_ACCESS_TOKEN' }) }],
  ['PSE: the sandbox lists three banks, "1" approves, "2" declines, "3" errs', () => api('GET', '/pse/financial_institutions', { key: keys.publicKey }), 200, {
    data: [
      { financial_institution_code: '1', financial_institution_name: 'Banco que aprueba' },
      { financial_institution_code: '2', financial_institution_name: 'Banco que declina' },
      { financial_institution_code: '3', financial_institution_name: 'Banco que simula un error' },
    ],
  }],
  ...(['1', '2', '3'] as const).map((bank): (typeof RULES)[number] => [
    `PSE: bank ${bank}: no URL in the creation reply; the URL arrives in the same read as the final status`,
    async () => {
      const created = await api('POST', '/transactions', { body: { ...signed(reference()), ...(await pair()), redirect_url: 'http://127.0.0.1:1/back', ...pse(bank) } });
      expect(created.status).toBe(201);
      expect((created.body.data!.payment_method as { extra?: unknown }).extra).toBeUndefined();
      const final = await until(() => readTxn(created.body.data!.id as string), (d) => d.status !== 'PENDING');
      return { status: 200, body: { data: final } };
    },
    200,
    { data: expect.objectContaining({ status: { '1': 'APPROVED', '2': 'DECLINED', '3': 'ERROR' }[bank], payment_method: expect.objectContaining({ extra: { async_payment_url: expect.stringMatching(/\/bank\//) } }) }) },
  ]),
  ['PSE: the phone goes with the country code', async () => api('POST', '/transactions', { body: { ...signed(reference()), ...(await pair()), redirect_url: 'http://127.0.0.1:1/back', ...pse('1'), customer_data: { phone_number: '3145678901', full_name: 'Ana Gómez' } } }), 422, invalid('customer_data')],
  ['PSE: a description over 30 characters is refused', async () => {
    const body = pse('1');
    return api('POST', '/transactions', { body: { ...signed(reference()), ...(await pair()), redirect_url: 'http://127.0.0.1:1/back', ...body, payment_method: { ...body.payment_method, payment_description: 'x'.repeat(31) } } });
  }, 422, invalid('payment_method')],

  // Events
  ['events: transaction.updated signed over its own properties and timestamp with the events secret, upper-case, also as X-Event-Checksum', async () => {
    const id = (await cardCharge()).body.data!.id as string;
    await expect.poll(() => received.some((e) => transactionOf(e)?.id === id)).toBe(true);
    const event = received.find((e) => transactionOf(e)?.id === id)! as WompiEvent & { header?: string };
    expect(event.signature.checksum).toBe(eventChecksum(event, keys.eventsSecret).toUpperCase());
    expect(event.header).toBe(event.signature.checksum);
    return { status: 200, body: event as unknown as Reply['body'] };
  }, 200, expect.objectContaining({ event: 'transaction.updated', environment: 'test', timestamp: expect.any(Number), signature: { properties: expect.arrayContaining(['transaction.id', 'transaction.status']), checksum: expect.stringMatching(/^[0-9A-F]{64}$/) } })],
  ['events: nequi_token.updated when the payer answers in the app', async () => {
    const created = await api('POST', '/tokens/nequi', { key: keys.publicKey, body: { phone_number: '3991111111' } });
    const id = created.body.data!.id as string;
    await expect.poll(() => received.some((e) => e.event === 'nequi_token.updated' && (e.data.nequi_token as { id: string }).id === id)).toBe(true);
    const event = received.find((e) => e.event === 'nequi_token.updated' && (e.data.nequi_token as { id: string }).id === id)!;
    expect(event.signature.checksum).toBe(eventChecksum(event, keys.eventsSecret).toUpperCase());
    return { status: 200, body: event as unknown as Reply['body'] };
  }, 200, expect.objectContaining({ data: { nequi_token: expect.objectContaining({ status: 'APPROVED', phone_number: '3991111111' }) } })],
];

const transactionOf = (e: WompiEvent) => e.data.transaction as { id: string; status: string } | undefined;

function pse(bank: string) {
  return {
    payment_method: { type: 'PSE', user_type: 0, user_legal_id_type: 'CC', user_legal_id: '1020304050', financial_institution_code: bank, payment_description: 'Plan mensual' },
    customer_data: { phone_number: '573145678901', full_name: 'Ana Gómez' },
  };
}

describe('the Wompi double answers as Wompi does, one row per rule', () => {
  it.each(RULES)('%s', async (_rule, run, status, body) => {
    const reply = await run();
    expect(reply.status).toBe(status);
    expect(reply.body).toEqual(body);
  });
});
