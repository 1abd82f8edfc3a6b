import { randomBytes, randomInt } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { luhnValid } from '../lib/processors/card';
import { createWompiClient } from '../lib/processors/wompi/client';
import { createWompiProcessor } from '../lib/processors/wompi/processor';
import { eventChecksum, integritySignature, type WompiEvent } from '../lib/processors/wompi/signatures';

// A local double of Wompi's HTTP API (docs/processors.md#the-wompi-double), as strict as Wompi is
// in the reference the project builds against: single-use one-hour acceptance tokens (a 401 does
// not spend one, a 422 for the signature does, each GET hands out new ones), validation in Wompi's
// order with one field per 422, Luhn and card-holder rules, unknown keys and ids answered as Wompi
// answers them, reused references refused, three PSE banks whose URL appears with the final status,
// the void's own reply, and signed events (APPROVED → VOIDED included). test/wompi-contract.test.ts
// holds one row per rule. It listens on loopback only; tests import it, and the e2e run and a
// developer start it with `npx tsx test/wompi-double.ts --port N` (then WOMPI_API_URL=http://127.0.0.1:N/v1).
// `/__control/*` lets a journey register a merchant's keys and read the recorded requests.

export interface DoubleMerchant {
  publicKey: string;
  privateKey: string;
  integritySecret: string;
  eventsSecret: string;
  /** Where events go; none means events are lost (the settler must settle). */
  eventsUrl?: string;
  /** This merchant's PSE bank URL timing, over the double's (see `pseUrl` below). */
  pseUrl?: 'with-final' | 'while-pending';
}

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | null;
  merchantKeyHeader: string | null;
  body: Record<string, unknown> | null;
  /** The HTTP status the double answered. */
  status: number;
}

type Final = 'APPROVED' | 'DECLINED' | 'ERROR';

interface Transaction {
  id: string;
  created_at: string;
  finalized_at: string | null;
  reference: string;
  amount_in_cents: number;
  currency: string;
  customer_email: string;
  status: 'PENDING' | Final | 'VOIDED';
  status_message: string | null;
  final: Final;
  payment_method_type: string;
  payment_method: Record<string, unknown>;
  payment_source_id: number | null;
  redirect_url: string | null;
  recurrent: boolean;
  merchant: DoubleMerchant;
}

interface ConsentToken {
  merchant: DoubleMerchant;
  type: 'END_USER_POLICY' | 'PERSONAL_DATA_AUTH';
  expiresAt: number;
  used: boolean;
}

interface NequiToken {
  id: string;
  phone: string;
  status: 'PENDING' | 'APPROVED' | 'DECLINED';
  final: Final;
  merchant: DoubleMerchant;
}

/** Wompi's sandbox data (docs/processors.md#the-wompi-double). */
export const SANDBOX = {
  cards: { approved: '4242424242424242', declined: '4111111111111111' },
  nequi: { approved: '3991111111', declined: '3992222222' },
  banks: [
    { financial_institution_code: '1', financial_institution_name: 'Banco que aprueba' },
    { financial_institution_code: '2', financial_institution_name: 'Banco que declina' },
    { financial_institution_code: '3', financial_institution_name: 'Banco que simula un error' },
  ],
} as const;

const CARD_OUTCOMES: Record<string, Final> = { [SANDBOX.cards.approved]: 'APPROVED', [SANDBOX.cards.declined]: 'DECLINED' };
const NEQUI_OUTCOMES: Record<string, Final> = { [SANDBOX.nequi.approved]: 'APPROVED', [SANDBOX.nequi.declined]: 'DECLINED' };
const PSE_OUTCOMES: Record<string, Final> = { '1': 'APPROVED', '2': 'DECLINED', '3': 'ERROR' };

/** How long an acceptance token lives (the sample token's JWT expires an hour after it was issued). */
export const CONSENT_TTL_MS = 60 * 60 * 1000;
/** The card minimum acquirers quote: COP 1,500. */
export const CARD_MINIMUM_CENTS = 150_000;

export const MESSAGES = {
  consentUsed: 'El token de aceptación ya fue usado',
  consentExpired: 'El token de aceptación ha expirado',
  consentInvalid: 'El token de aceptación no es válido',
  referenceUsed: 'La referencia ya ha sido usada',
  signature: 'La firma es inválida',
  invalidKey: 'Llave no válida',
  forbidden: 'El token no tiene suficientes permisos',
  notFound: 'La entidad solicitada no existe',
  declined: 'La transacción fue rechazada (Sandbox)',
  error: 'Error en la transacción (Sandbox)',
} as const;

const rand = () => randomBytes(8).toString('hex');
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;
const PUBLIC_KEY = /^pub_(test|prod)_[A-Za-z0-9]+$/;

export interface WompiDoubleOptions {
  port?: number;
  /** How long a transaction stays PENDING before it settles (and its event is sent). */
  settleMs?: number;
  /** How long every API call takes to answer (a real processor's few hundred ms). */
  latencyMs?: number;
  /** Keep every request for `requests` (false for a benchmark's hundred thousand). */
  recordRequests?: boolean;
  /** A charge of a saved source answers its final status at once, not PENDING (a benchmark's renewals). */
  finalOnCreate?: boolean;
}

export async function startWompiDouble(options: WompiDoubleOptions = {}) {
  const merchants = new Map<string, DoubleMerchant>();
  const consents = new Map<string, ConsentToken>();
  const cardTokens = new Map<string, { final: Final; brand: string; last_four: string; merchant: DoubleMerchant }>();
  const nequiTokens = new Map<string, NequiToken>();
  const sources = new Map<number, { type: 'CARD' | 'NEQUI'; final: Final; merchant: DoubleMerchant; customer_email: string }>();
  const transactions = new Map<string, Transaction>();
  const requests: RecordedRequest[] = [];
  const events: { url: string; status: number; event: WompiEvent }[] = [];
  let settleMs = options.settleMs ?? 50;
  let latencyMs = options.latencyMs ?? 0;
  const recordRequests = options.recordRequests ?? true;
  /** Merchants over their rate: until when each answers 429 to charges, and the Retry-After it sends. */
  const rateLimits = new Map<string, { until: number; retryAfterSeconds: number | null }>();
  /** 429s answered, per public key. */
  const refusedForRate = new Map<string, number>();
  /** Each merchant's references, as `publicKey reference`: a reference is used once. */
  const usedReferences = new Set<string>();
  let clockOffset = 0;
  let nextSource = 3000 + randomInt(1000);
  /**
   * When a PSE transaction's bank URL appears: with its final status (what the sandbox did in
   * 2026), or on the first read while still PENDING (a bank that takes its time).
   */
  let pseUrl: 'with-final' | 'while-pending' = 'with-final';
  /** What the next void replies (Wompi's own status of the void operation). */
  let voidReplies: ('APPROVED' | 'PENDING' | 'DECLINED')[] = [];
  /** Replies to drop: the request is handled, the connection is cut before the answer. */
  const dropReplies: { method: string; path: string }[] = [];

  const now = () => Date.now() + clockOffset;
  const byKey = (key: string | undefined) => [...merchants.values()].find((m) => m.publicKey === key || m.privateKey === key);

  function issueConsent(m: DoubleMerchant, type: ConsentToken['type']): string {
    const issued = now();
    const payload = { contract_id: type === 'END_USER_POLICY' ? 1 : 2, permalink: permalinkOf(type), file_hash: rand(), jti: `${rand()}${rand()}`, exp: Math.floor((issued + CONSENT_TTL_MS) / 1000) };
    const token = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(payload)}.${randomBytes(16).toString('base64url')}`;
    consents.set(token, { merchant: m, type, expiresAt: issued + CONSENT_TTL_MS, used: false });
    return token;
  }
  const permalinkOf = (type: ConsentToken['type']) => `${base()}/docs/${type === 'END_USER_POLICY' ? 'end-user-policy' : 'personal-data'}.pdf`;

  function merchantInfo(m: DoubleMerchant) {
    return {
      id: 1,
      name: 'Comercio de pruebas',
      legal_name: 'Comercio de pruebas SAS',
      legal_id: '900123456',
      legal_id_type: 'NIT',
      public_key: m.publicKey,
      accepted_currencies: ['COP'],
      accepted_payment_methods: ['CARD', 'NEQUI', 'PSE'],
      presigned_acceptance: { acceptance_token: issueConsent(m, 'END_USER_POLICY'), permalink: permalinkOf('END_USER_POLICY'), type: 'END_USER_POLICY' },
      presigned_personal_data_auth: { acceptance_token: issueConsent(m, 'PERSONAL_DATA_AUTH'), permalink: permalinkOf('PERSONAL_DATA_AUTH'), type: 'PERSONAL_DATA_AUTH' },
    };
  }

  /** The transaction as Wompi shows it; a PSE bank URL only once it has appeared. */
  function view(t: Transaction) {
    const { id, created_at, finalized_at, reference, amount_in_cents, currency, customer_email, status, status_message, payment_method_type, payment_source_id, redirect_url } = t;
    const { bank_url: bankUrl, ...method } = t.payment_method as Record<string, unknown> & { bank_url?: string };
    const shown = t.payment_method_type === 'PSE' && bankUrl && (status !== 'PENDING' || (t.merchant.pseUrl ?? pseUrl) === 'while-pending');
    return {
      id, created_at, finalized_at, reference, amount_in_cents, currency, customer_email, status, status_message, payment_method_type, payment_source_id, redirect_url,
      payment_method: { ...method, ...(shown ? { extra: { async_payment_url: bankUrl } } : {}) },
    };
  }

  function signed(event: string, data: Record<string, unknown>, properties: string[], secret: string): WompiEvent {
    const signature = { properties, checksum: '' };
    const unsigned = { data, signature, timestamp: Math.floor(now() / 1000) };
    // Wompi's docs print the checksum in upper case.
    signature.checksum = eventChecksum(unsigned, secret).toUpperCase();
    return { event, environment: 'test', sent_at: new Date(now()).toISOString(), ...unsigned };
  }

  /** The `transaction.updated` event Wompi sends about a transaction, signed with the merchant's events secret. */
  function buildEvent(transactionId: string, override: { secret?: string; status?: string } = {}): WompiEvent {
    const t = transactions.get(transactionId);
    if (!t) throw new Error(`No transaction ${transactionId}`);
    const data = { transaction: { ...view(t), ...(override.status ? { status: override.status } : {}) } };
    return signed('transaction.updated', data, ['transaction.id', 'transaction.status', 'transaction.amount_in_cents'], override.secret ?? t.merchant.eventsSecret);
  }

  function buildNequiEvent(tokenId: string): WompiEvent {
    const n = nequiTokens.get(tokenId);
    if (!n) throw new Error(`No Nequi token ${tokenId}`);
    const data = { nequi_token: { id: n.id, status: n.status, phone_number: n.phone, name: 'Pruebas Nequi' } };
    return signed('nequi_token.updated', data, ['nequi_token.id', 'nequi_token.status'], n.merchant.eventsSecret);
  }

  async function post(url: string, event: WompiEvent) {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Event-Checksum': event.signature.checksum },
      body: JSON.stringify(event),
    });
    await res.arrayBuffer().catch(() => null);
    events.push({ url, status: res.status, event });
    return res.status;
  }

  async function sendEvent(transactionId: string, override: { url?: string; secret?: string; status?: string } = {}) {
    const url = override.url ?? transactions.get(transactionId)?.merchant.eventsUrl;
    if (!url) return null;
    return post(url, buildEvent(transactionId, override));
  }

  async function sendNequiEvent(tokenId: string) {
    const url = nequiTokens.get(tokenId)?.merchant.eventsUrl;
    if (!url) return null;
    return post(url, buildNequiEvent(tokenId));
  }

  function finalize(t: Transaction) {
    if (t.status !== 'PENDING') return;
    t.status = t.final;
    t.finalized_at = new Date(now()).toISOString();
    t.status_message = t.final === 'DECLINED' ? MESSAGES.declined : t.final === 'ERROR' ? MESSAGES.error : null;
    void sendEvent(t.id).catch(() => {});
  }

  function settleLater(t: Transaction) {
    setTimeout(() => finalize(t), settleMs).unref();
  }

  /** A void made in Wompi's dashboard (or accepted through the API): APPROVED → VOIDED, and its event. */
  function voidNow(t: Transaction) {
    if (t.status !== 'APPROVED') return;
    t.status = 'VOIDED';
    void sendEvent(t.id).catch(() => {});
  }

  /** The payer approves (or not) in the Nequi app: the token's status, and its event. */
  function decideNequi(n: NequiToken) {
    if (n.status !== 'PENDING') return;
    n.status = n.final === 'APPROVED' ? 'APPROVED' : 'DECLINED';
    void sendNequiEvent(n.id).catch(() => {});
  }

  type Reply = { status: number; body?: unknown; headers?: Record<string, string> };
  const invalid = (field: string, message: string): Reply => ({ status: 422, body: { error: { type: 'INPUT_VALIDATION_ERROR', messages: { [field]: [message] } } } });
  const error = (status: number, type: string, reason: string): Reply => ({ status, body: { error: { type, reason } } });
  const notFound = () => error(404, 'NOT_FOUND_ERROR', MESSAGES.notFound);
  const ok = (data: unknown, status = 200): Reply => ({ status, body: { data } });
  const unauthorized = () => error(401, 'INVALID_ACCESS_TOKEN', MESSAGES.invalidKey);

  /** The first field problem of a body, in the order given: Wompi answers one field at a time. */
  function firstProblem(checks: [field: string, bad: boolean, message: string][]): Reply | null {
    const found = checks.find(([, bad]) => bad);
    return found ? invalid(found[0], found[2]) : null;
  }

  /**
   * Wompi's order for anything that takes consent: token format, then the acceptance tokens (spent
   * once they pass, whatever follows), then the signature. A 401 comes before all of it.
   */
  function spendConsent(m: DoubleMerchant, body: Record<string, unknown>): Reply | null {
    const pair: [string, ConsentToken['type']][] = [['acceptance_token', 'END_USER_POLICY'], ['accept_personal_auth', 'PERSONAL_DATA_AUTH']];
    for (const [field] of pair) {
      const value = body[field];
      if (typeof value !== 'string' || !value) return invalid(field, 'Este campo es requerido');
      if (!JWT.test(value)) return invalid(field, MESSAGES.consentInvalid);
    }
    for (const [field, type] of pair) {
      const token = consents.get(body[field] as string);
      if (!token || token.merchant !== m || token.type !== type) return invalid(field, MESSAGES.consentInvalid);
      if (token.used) return invalid(field, MESSAGES.consentUsed);
      if (token.expiresAt <= now()) return invalid(field, MESSAGES.consentExpired);
    }
    for (const [field] of pair) consents.get(body[field] as string)!.used = true;
    return null;
  }

  function handle(method: string, url: URL, auth: string | null, merchantKeyHeader: string | null, body: Record<string, unknown> | null): Reply {
    const key = auth?.replace(/^Bearer\s+/i, '') || undefined;
    const merchant = byKey(key);
    const isPrivate = Boolean(merchant && key === merchant.privateKey);
    const path = url.pathname;
    /** A private-key call: no key or an unknown one is 401, the public key 403. */
    const needsPrivate = (): Reply | null => (!merchant ? unauthorized() : isPrivate ? null : error(403, 'FORBIDDEN', MESSAGES.forbidden));
    const b = body ?? {};
    let match: RegExpExecArray | null;

    if (method === 'GET' && (path === '/v1/merchants/info' || (match = /^\/v1\/merchants\/([^/]+)$/.exec(path)))) {
      const publicKey = path === '/v1/merchants/info' ? (merchantKeyHeader ?? '') : decodeURIComponent(match![1]!);
      if (!PUBLIC_KEY.test(publicKey)) return invalid('public_key', 'La llave pública no tiene un formato válido');
      const m = merchants.get(publicKey);
      return m ? ok(merchantInfo(m)) : error(404, 'NOT_FOUND_ERROR', MESSAGES.notFound);
    }
    if (method === 'GET' && path === '/v1/pse/financial_institutions') {
      return merchant ? ok(SANDBOX.banks) : unauthorized();
    }
    if (method === 'POST' && path === '/v1/tokens/cards') {
      if (!key || !merchant) {
        return key?.startsWith('pub_')
          ? { status: 404, body: { error: { type: 'NOT_FOUND', reason: `Comercio con llave ${key} no encontrado`, code: 'MERCHANT_NOT_FOUND' } } }
          : unauthorized();
      }
      const number = String(b.number ?? '');
      const holder = typeof b.card_holder === 'string' ? b.card_holder : '';
      const bad = firstProblem([
        ['number', !/^\d{12,19}$/.test(number) || !luhnValid(number), 'El número de tarjeta no es válido'],
        ['cvc', !/^\d{3,4}$/.test(String(b.cvc ?? '')), 'El código de seguridad no es válido'],
        ['exp_month', !/^(0[1-9]|1[0-2])$/.test(String(b.exp_month ?? '')), 'El mes de expiración no es válido'],
        ['exp_year', !/^\d{2}$/.test(String(b.exp_year ?? '')), 'El año de expiración no es válido'],
        ['card_holder', holder.trim().length < 5, 'El nombre del tarjetahabiente debe tener al menos 5 caracteres'],
      ]);
      if (bad) return bad;
      const id = `tok_test_${randomInt(10000)}_${rand()}`;
      const brand = number.startsWith('4') ? 'VISA' : number.startsWith('5') ? 'MASTERCARD' : 'AMEX';
      cardTokens.set(id, { final: CARD_OUTCOMES[number] ?? 'ERROR', brand, last_four: number.slice(-4), merchant });
      const created = new Date(now());
      const data = {
        id, brand, name: `${brand} ${number.slice(-4)}`, last_four: number.slice(-4), bin: number.slice(0, 6),
        exp_month: b.exp_month, exp_year: b.exp_year, card_holder: holder,
        created_at: created.toISOString(), expires_at: new Date(created.getTime() + 15 * 60_000).toISOString(),
      };
      return { status: 201, body: { status: 'CREATED', data } };
    }
    if (method === 'POST' && path === '/v1/tokens/nequi') {
      if (!merchant) return unauthorized();
      const phone = String(b.phone_number ?? '');
      if (!/^3\d{9}$/.test(phone)) return invalid('phone_number', 'El número de celular no es válido');
      const id = `nequi_test_${rand()}`;
      const token: NequiToken = { id, phone, status: 'PENDING', final: NEQUI_OUTCOMES[phone] ?? 'ERROR', merchant };
      nequiTokens.set(id, token);
      // The payer answers in the app on their own time (settleMs here, or decideNequi from a test).
      setTimeout(() => decideNequi(token), settleMs).unref();
      return ok({ id, status: 'PENDING', phone_number: phone, name: 'Pruebas Nequi' }, 201);
    }
    if (method === 'GET' && (match = /^\/v1\/tokens\/nequi\/([^/]+)$/.exec(path))) {
      if (!merchant) return unauthorized();
      const token = nequiTokens.get(match[1]!);
      if (!token || token.merchant !== merchant) return notFound();
      return ok({ id: token.id, status: token.status, phone_number: token.phone, name: 'Pruebas Nequi' });
    }
    if (method === 'POST' && path === '/v1/payment_sources') {
      const denied = needsPrivate();
      if (denied) return denied;
      const type = b.type;
      const token = String(b.token ?? '');
      const format = firstProblem([
        ['type', type !== 'CARD' && type !== 'NEQUI', 'Debe ser CARD o NEQUI'],
        ['token', !token, 'Este campo es requerido'],
        ['customer_email', typeof b.customer_email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(b.customer_email), 'Debe ser un correo electrónico'],
      ]);
      if (format) return format;
      const consent = spendConsent(merchant!, b);
      if (consent) return consent;
      let final: Final;
      let phone: string | undefined;
      if (type === 'CARD' && cardTokens.get(token)?.merchant === merchant) final = cardTokens.get(token)!.final;
      else if (type === 'NEQUI' && nequiTokens.get(token)?.merchant === merchant) {
        const nequi = nequiTokens.get(token)!;
        if (nequi.status !== 'APPROVED') return error(422, 'UNPROCESSABLE', 'El token de Nequi no ha sido aprobado');
        ({ final, phone } = { final: nequi.final, phone: nequi.phone });
      } else return invalid('token', 'El token no es válido');
      const id = nextSource++;
      sources.set(id, { type: type as 'CARD' | 'NEQUI', final, merchant: merchant!, customer_email: b.customer_email as string });
      return ok({ id, type, token, status: 'AVAILABLE', customer_email: b.customer_email, public_data: { type, ...(phone ? { phone_number: phone } : {}) } }, 201);
    }
    if (method === 'POST' && path === '/v1/transactions') {
      if (!merchant) return unauthorized();
      const savedSource = b.payment_source_id !== undefined;
      if (savedSource && !isPrivate) return error(403, 'FORBIDDEN', MESSAGES.forbidden);
      const reference = b.reference;
      const amount = b.amount_in_cents;
      const pm = (b.payment_method ?? {}) as Record<string, unknown>;
      const type = savedSource ? sources.get(Number(b.payment_source_id))?.type : pm.type;
      // 1. Token format: each field, the first problem only.
      const format = firstProblem([
        ['amount_in_cents', !Number.isInteger(amount) || (amount as number) <= 0, 'Debe ser un entero positivo'],
        ['amount_in_cents', Number.isInteger(amount) && (amount as number) % 100 !== 0, 'El monto en centavos debe terminar en 00'],
        ['currency', b.currency !== 'COP', 'Debe ser COP'],
        // Required with a payment method; a saved source has the e-mail it was made with. Never empty.
        ['customer_email', (b.customer_email !== undefined || !savedSource) && (typeof b.customer_email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(b.customer_email)), 'Debe ser un correo electrónico'],
        ['reference', typeof reference !== 'string' || !/^[A-Za-z0-9_-]{1,255}$/.test(reference), 'Solo letras, dígitos, - y _'],
        ['signature', typeof b.signature !== 'string' || !/^[0-9a-f]{64}$/.test(b.signature), 'Este campo es requerido'],
        ['payment_source_id', savedSource && !sources.has(Number(b.payment_source_id)), 'La fuente de pago no existe'],
        ['payment_method', !savedSource && !['CARD', 'NEQUI', 'PSE'].includes(String(pm.type)), 'Método de pago inválido'],
        ['amount_in_cents', type === 'CARD' && Number.isInteger(amount) && (amount as number) < CARD_MINIMUM_CENTS, 'El monto mínimo para tarjetas es de COP 1.500'],
        ['payment_method', pm.type === 'PSE' && String(pm.payment_description ?? '').length > 30, 'La descripción admite 30 caracteres'],
        ['payment_method', pm.type === 'PSE' && !['CC', 'NIT', 'CE', 'PP', 'TI'].includes(String(pm.user_legal_id_type)), 'Tipo de documento inválido'],
        ['customer_data', pm.type === 'PSE' && !/^57\d{10}$/.test(String((b.customer_data as Record<string, unknown> | undefined)?.phone_number ?? '')), 'El celular va con el indicativo del país (57…)'],
        ['redirect_url', pm.type === 'PSE' && !b.redirect_url, 'Requerido para PSE'],
      ]);
      if (format) return format;
      // 2. The acceptance tokens: a payment method needs both; a saved source carries none (its consent was given when it was made).
      if (!savedSource) {
        const consent = spendConsent(merchant, b);
        if (consent) return consent;
      }
      // 3. The signature.
      const expected = integritySignature({ reference: reference as string, amountInCents: amount as number, currency: 'COP' }, merchant.integritySecret);
      if (b.signature !== expected) return invalid('signature', MESSAGES.signature);
      if (usedReferences.has(`${merchant.publicKey} ${String(reference)}`)) return invalid('reference', MESSAGES.referenceUsed);
      let final: Final;
      let sourceId: number | null = null;
      if (savedSource) {
        const source = sources.get(Number(b.payment_source_id))!;
        if (source.merchant !== merchant) return invalid('payment_source_id', 'La fuente de pago no existe');
        final = source.final;
        sourceId = Number(b.payment_source_id);
      } else if (pm.type === 'CARD') {
        const token = cardTokens.get(String(pm.token));
        if (!token || token.merchant !== merchant) return invalid('payment_method', 'El token no es válido');
        final = token.final;
      } else if (pm.type === 'NEQUI') {
        final = NEQUI_OUTCOMES[String(pm.phone_number)] ?? 'ERROR';
      } else {
        final = PSE_OUTCOMES[String(pm.financial_institution_code)] ?? 'ERROR';
      }
      const id = `${10000 + randomInt(90000)}-${Math.floor(now() / 1000)}-${String(randomInt(100000)).padStart(5, '0')}`;
      const t: Transaction = {
        id, created_at: new Date(now()).toISOString(), finalized_at: null, reference: reference as string, amount_in_cents: amount as number, currency: 'COP',
        customer_email: (b.customer_email as string | undefined) ?? (savedSource ? sources.get(Number(b.payment_source_id))!.customer_email : ''), status: 'PENDING', status_message: null, final, payment_method_type: type as string,
        payment_method: { ...pm, type, ...(type === 'PSE' ? { bank_url: `${origin()}/bank/${id}` } : {}) },
        payment_source_id: sourceId, redirect_url: (b.redirect_url as string) ?? null, recurrent: b.recurrent === true, merchant,
      };
      transactions.set(id, t);
      usedReferences.add(`${merchant.publicKey} ${t.reference}`);
      if (savedSource && options.finalOnCreate) {
        t.status = t.final;
        t.finalized_at = t.created_at;
      } else settleLater(t);
      return ok(view(t), 201);
    }
    if (method === 'GET' && path === '/v1/transactions') {
      if (!merchant) return unauthorized();
      if (!isPrivate) return unauthorized();
      const reference = url.searchParams.get('reference');
      return ok([...transactions.values()].filter((t) => t.merchant === merchant && (!reference || t.reference === reference)).map(view));
    }
    if (method === 'GET' && (match = /^\/v1\/transactions\/([^/]+)$/.exec(path))) {
      // Measured: any key, or none.
      const t = transactions.get(match[1]!);
      return t ? ok(view(t)) : notFound();
    }
    if (method === 'POST' && (match = /^\/v1\/transactions\/([^/]+)\/void$/.exec(path))) {
      const denied = needsPrivate();
      if (denied) return denied;
      const t = transactions.get(match[1]!);
      if (!t || t.merchant !== merchant) return notFound();
      if (t.payment_method_type !== 'CARD' || t.status !== 'APPROVED') return error(422, 'UNPROCESSABLE', 'Solo se anulan transacciones aprobadas con tarjeta');
      const status = voidReplies.shift() ?? 'APPROVED';
      // The reply describes the void; the transaction inside still says APPROVED and turns VOIDED shortly after.
      const reply = ok({ id: `void_${rand()}`, status, status_message: status === 'DECLINED' ? 'Anulación rechazada (Sandbox)' : null, transaction: view(t) });
      if (status !== 'DECLINED') setTimeout(() => voidNow(t), Math.min(settleMs, 200)).unref();
      return reply;
    }
    return notFound();
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://double');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: Record<string, unknown> | null = null;
    try {
      const parsed = text ? (JSON.parse(text) as unknown) : null;
      body = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
    } catch {
      body = null;
    }
    // Browsers tokenize and fetch consent here straight from the checkout page: Wompi answers cross-origin.
    const cors = {
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Headers': 'Authorization, Content-Type, x-merchant-public-key',
      'Access-Control-Allow-Methods': 'GET, POST',
    };
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': 'application/json', ...cors, ...headers });
      res.end(payload === undefined ? '' : JSON.stringify(payload));
    };
    if (req.method === 'OPTIONS') return send(204, undefined);
    if (url.pathname === '/health') return send(200, { ok: true });
    if (url.pathname.startsWith('/__control/')) return control(req.method ?? 'GET', url, body, send);
    if (url.pathname.startsWith('/docs/')) {
      res.writeHead(200, { 'Content-Type': 'application/pdf', ...cors });
      return res.end('%PDF-1.4\n% Documento de prueba del doble de Wompi\n');
    }
    let match: RegExpExecArray | null;
    if (req.method === 'GET' && (match = /^\/bank\/([^/]+)$/.exec(url.pathname))) {
      // The "bank": the payer decides at once and is sent back to the merchant's redirect_url.
      const t = transactions.get(match[1]!);
      if (!t?.redirect_url) return send(404, { error: 'unknown' });
      finalize(t);
      const back = new URL(t.redirect_url);
      back.searchParams.set('id', t.id);
      res.writeHead(302, { Location: back.toString() });
      return res.end();
    }
    const method = req.method ?? 'GET';
    const merchantKeyHeader = typeof req.headers['x-merchant-public-key'] === 'string' ? req.headers['x-merchant-public-key'] : null;
    if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
    const reply = overRate(method, url, req.headers.authorization ?? null) ?? handle(method, url, req.headers.authorization ?? null, merchantKeyHeader, body);
    if (recordRequests) requests.push({ method, path: url.pathname + url.search, authorization: req.headers.authorization ?? null, merchantKeyHeader, body, status: reply.status });
    const drop = dropReplies.findIndex((d) => d.method === method && d.path === url.pathname);
    if (drop >= 0) {
      dropReplies.splice(drop, 1);
      // Handled, but the answer never arrives: what a timeout or a cut connection looks like.
      return req.socket.destroy();
    }
    send(reply.status, reply.body, reply.headers);
  });

  /** A charge of a merchant over its rate: 429 before anything is handled, as Wompi's limiter answers. */
  function overRate(method: string, url: URL, auth: string | null): Reply | null {
    if (method !== 'POST' || url.pathname !== '/v1/transactions') return null;
    const merchant = byKey(auth?.replace(/^Bearer\s+/i, '') || undefined);
    const limit = merchant && rateLimits.get(merchant.publicKey);
    if (!merchant || !limit || limit.until <= now()) return null;
    refusedForRate.set(merchant.publicKey, (refusedForRate.get(merchant.publicKey) ?? 0) + 1);
    return {
      status: 429,
      body: { error: { type: 'TOO_MANY_REQUESTS', reason: 'Demasiadas solicitudes' } },
      headers: limit.retryAfterSeconds === null ? {} : { 'Retry-After': String(limit.retryAfterSeconds) },
    };
  }

  /** `count` saved card or Nequi sources of a merchant at once (benchmarks): the first id; the rest follow it. */
  function addSources(publicKey: string, count: number, final: Final = 'APPROVED', type: 'CARD' | 'NEQUI' = 'CARD'): number {
    const merchant = merchants.get(publicKey);
    if (!merchant) throw new Error(`No merchant ${publicKey}`);
    const first = nextSource;
    for (let i = 0; i < count; i++) sources.set(nextSource++, { type, final, merchant, customer_email: 'bench@example.com' });
    return first;
  }

  function control(method: string, url: URL, body: Record<string, unknown> | null, send: (s: number, p: unknown) => void) {
    if (method === 'POST' && url.pathname === '/__control/merchants') {
      const m = body as unknown as DoubleMerchant;
      merchants.set(m.publicKey, m);
      return send(200, { ok: true });
    }
    if (method === 'GET' && url.pathname === '/__control/requests') return send(200, requests);
    if (method === 'GET' && url.pathname === '/__control/events') return send(200, events.map((e) => ({ url: e.url, status: e.status, event: e.event.event })));
    if (method === 'POST' && url.pathname === '/__control/settle-ms') {
      settleMs = Number(body?.settleMs ?? settleMs);
      return send(200, { settleMs });
    }
    if (method === 'POST' && url.pathname === '/__control/rate-limit') {
      const publicKey = String(body?.publicKey ?? '');
      rateLimits.set(publicKey, { until: now() + Number(body?.forMs ?? 0), retryAfterSeconds: body?.retryAfterSeconds === undefined ? null : Number(body.retryAfterSeconds) });
      return send(200, { ok: true });
    }
    if (method === 'GET' && url.pathname === '/__control/rate-limited') return send(200, Object.fromEntries(refusedForRate));
    if (method === 'POST' && url.pathname === '/__control/latency') {
      latencyMs = Number(body?.ms ?? latencyMs);
      return send(200, { latencyMs });
    }
    if (method === 'POST' && url.pathname === '/__control/sources') {
      const first = addSources(String(body?.publicKey ?? ''), Number(body?.count ?? 0), (body?.final as Final | undefined) ?? 'APPROVED');
      return send(200, { first });
    }
    if (method === 'POST' && url.pathname === '/__control/pse-url') {
      pseUrl = body?.mode === 'while-pending' ? 'while-pending' : 'with-final';
      return send(200, { pseUrl });
    }
    send(404, { error: 'unknown control' });
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const origin = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const base = () => `${origin()}/v1`;

  return {
    origin: origin(),
    /** What WOMPI_API_URL is set to. */
    url: base(),
    requests,
    events,
    transactions,
    nequiTokens,
    addMerchant: (m: DoubleMerchant) => void merchants.set(m.publicKey, m),
    setSettleMs: (ms: number) => void (settleMs = ms),
    setLatencyMs: (ms: number) => void (latencyMs = ms),
    /** The merchant's charges answer 429 for `forMs` (with Retry-After when given). */
    rateLimit: (publicKey: string, forMs: number, retryAfterSeconds: number | null = null) => void rateLimits.set(publicKey, { until: now() + forMs, retryAfterSeconds }),
    /** 429s answered to the merchant's charges so far. */
    refusedForRate: (publicKey: string) => refusedForRate.get(publicKey) ?? 0,
    addSources,
    setPseUrl: (mode: 'with-final' | 'while-pending') => void (pseUrl = mode),
    /** What the next voids reply, in order (then APPROVED). */
    setVoidReplies: (replies: ('APPROVED' | 'PENDING' | 'DECLINED')[]) => void (voidReplies = [...replies]),
    /** The next request to `method path` is handled, but its reply is lost. */
    dropReply: (method: string, path: string) => void dropReplies.push({ method, path }),
    /** Moves the double's clock (consent tokens expire by it). */
    advanceClock: (ms: number) => void (clockOffset += ms),
    /** Decides a PENDING transaction now (its event follows). */
    finalize: (id: string) => finalize(transactions.get(id)!),
    /** A void made in Wompi's dashboard: APPROVED → VOIDED and its event. */
    dashboardVoid: (id: string) => voidNow(transactions.get(id)!),
    /** The payer answers in the Nequi app now (its event follows). */
    decideNequi: (id: string) => decideNequi(nequiTokens.get(id)!),
    buildEvent,
    buildNequiEvent,
    sendEvent,
    sendNequiEvent,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type WompiDouble = Awaited<ReturnType<typeof startWompiDouble>>;

/** Keys in Wompi's sandbox format, unique per call. */
export function testWompiKeys(): DoubleMerchant {
  const id = rand();
  return {
    publicKey: `pub_test_${id}`,
    privateKey: `prv_test_${id}`,
    integritySecret: `test_integrity_${id}`,
    eventsSecret: `test_events_${id}`,
  };
}

/**
 * A new merchant on `double`: its keys, ServicePay's processor for it, the browser's client (public
 * key), and `fresh()`, a new single-use acceptance pair as the page fetches one for each attempt.
 */
export function doubleMerchant(double: WompiDouble) {
  const keys = testWompiKeys();
  double.addMerchant(keys);
  const client = createWompiClient({ baseUrl: double.url, publicKey: keys.publicKey });
  const fresh = async () => {
    const documents = await client.merchant();
    return { acceptanceToken: documents.presigned_acceptance.acceptance_token, personalDataToken: documents.presigned_personal_data_auth.acceptance_token };
  };
  return { keys, processor: createWompiProcessor(keys, { apiUrl: double.url }), client, fresh };
}

if (process.argv[1]?.endsWith('wompi-double.ts')) {
  const port = Number(process.argv[process.argv.indexOf('--port') + 1] || 0);
  void startWompiDouble({ port }).then((double) => console.log(`Wompi double on ${double.url}`));
}
