import { randomBytes, randomInt } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventChecksum, integritySignature, type WompiEvent } from '../lib/payments/wompi/signatures';

// A local double of Wompi's HTTP API (docs/processors.md), faithful to what Wompi documents: its
// sandbox test data, every transaction PENDING first, errors shaped as Wompi shapes them, events
// with correct checksums sent to the merchant's events URL. It listens on loopback only; tests
// import it, and the e2e run and a developer start it with `npx tsx test/wompi-double.ts --port N`
// (then WOMPI_API_URL=http://127.0.0.1:N/v1). `/__control/*` lets a journey register a merchant's
// keys and read the recorded requests.

export interface DoubleMerchant {
  publicKey: string;
  privateKey: string;
  integritySecret: string;
  eventsSecret: string;
  /** Where events go; none means events are lost (the settler must settle). */
  eventsUrl?: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | null;
  body: Record<string, unknown> | null;
}

type Final = 'APPROVED' | 'DECLINED' | 'ERROR';

interface Transaction {
  id: string;
  reference: string;
  amount_in_cents: number;
  currency: string;
  customer_email: string;
  status: 'PENDING' | Final | 'VOIDED';
  final: Final;
  payment_method_type: string;
  payment_method: Record<string, unknown>;
  payment_source_id: number | null;
  redirect_url: string | null;
  recurrent: boolean;
  merchant: DoubleMerchant;
}

const CARD_OUTCOMES: Record<string, Final> = { '4242424242424242': 'APPROVED', '4111111111111111': 'DECLINED' };
const NEQUI_OUTCOMES: Record<string, Final> = { '3991111111': 'APPROVED', '3992222222': 'DECLINED' };
const PSE_OUTCOMES: Record<string, Final> = { '1': 'APPROVED', '2': 'DECLINED' };

const rand = () => randomBytes(8).toString('hex');

export interface WompiDoubleOptions {
  port?: number;
  /** How long a transaction stays PENDING before it settles (and its event is sent). */
  settleMs?: number;
}

export async function startWompiDouble(options: WompiDoubleOptions = {}) {
  const merchants = new Map<string, DoubleMerchant>();
  const cardTokens = new Map<string, { final: Final; brand: string; last_four: string; merchant: DoubleMerchant }>();
  const nequiTokens = new Map<string, { phone: string; status: 'PENDING' | 'APPROVED' | 'DECLINED'; final: Final }>();
  const sources = new Map<number, { type: 'CARD' | 'NEQUI'; final: Final; merchant: DoubleMerchant }>();
  const transactions = new Map<string, Transaction>();
  const requests: RecordedRequest[] = [];
  const events: { url: string; status: number; event: WompiEvent }[] = [];
  let settleMs = options.settleMs ?? 50;
  let nextSource = 3000 + randomInt(1000);

  const byKey = (key: string | undefined) => [...merchants.values()].find((m) => m.publicKey === key || m.privateKey === key);

  function acceptance(m: DoubleMerchant) {
    return {
      presigned_acceptance: { acceptance_token: `acc_eup_${m.publicKey}`, permalink: `${base()}/docs/end-user-policy.pdf`, type: 'END_USER_POLICY' },
      presigned_personal_data_auth: {
        acceptance_token: `acc_pda_${m.publicKey}`,
        permalink: `${base()}/docs/personal-data.pdf`,
        type: 'PERSONAL_DATA_AUTH',
      },
    };
  }

  function view(t: Transaction) {
    const { id, reference, amount_in_cents, currency, customer_email, status, payment_method_type, payment_method, payment_source_id, redirect_url } = t;
    return { id, reference, amount_in_cents, currency, customer_email, status, payment_method_type, payment_method, payment_source_id, redirect_url };
  }

  /** The `transaction.updated` event Wompi sends about a transaction, signed with the merchant's events secret. */
  function buildEvent(transactionId: string, override: { secret?: string; status?: string } = {}): WompiEvent {
    const t = transactions.get(transactionId);
    if (!t) throw new Error(`No transaction ${transactionId}`);
    const data = { transaction: { ...view(t), ...(override.status ? { status: override.status } : {}) } };
    const signature = { properties: ['transaction.id', 'transaction.status', 'transaction.amount_in_cents'], checksum: '' };
    const unsigned = { data, signature, timestamp: Math.floor(Date.now() / 1000) };
    signature.checksum = eventChecksum(unsigned, override.secret ?? t.merchant.eventsSecret).toUpperCase();
    return { event: 'transaction.updated', environment: 'test', sent_at: new Date().toISOString(), ...unsigned };
  }

  async function sendEvent(transactionId: string, override: { url?: string; secret?: string; status?: string } = {}) {
    const url = override.url ?? transactions.get(transactionId)?.merchant.eventsUrl;
    if (!url) return null;
    const event = buildEvent(transactionId, override);
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Event-Checksum': event.signature.checksum },
      body: JSON.stringify(event),
    });
    events.push({ url, status: res.status, event });
    return res.status;
  }

  function settleLater(t: Transaction) {
    setTimeout(() => {
      if (t.status !== 'PENDING') return;
      t.status = t.final;
      void sendEvent(t.id).catch(() => {});
    }, settleMs).unref();
  }

  type Reply = { status: number; body?: unknown; headers?: Record<string, string> };
  const error = (status: number, type: string, reason: unknown): Reply => ({
    status,
    body: { error: type === 'INPUT_VALIDATION_ERROR' ? { type, messages: reason } : { type, reason } },
  });
  const ok = (data: unknown, status = 200): Reply => ({ status, body: { data } });

  function handle(method: string, url: URL, auth: string | null, body: Record<string, unknown> | null): Reply {
    const key = auth?.replace(/^Bearer\s+/i, '');
    const merchant = byKey(key);
    const path = url.pathname;
    const needs = (kind: 'public' | 'private'): Reply | null => {
      if (!merchant) return error(401, 'INVALID_ACCESS_TOKEN', 'Se esperaba una llave pública o privada válida');
      if (kind === 'private' && key !== merchant.privateKey) return error(401, 'INVALID_ACCESS_TOKEN', 'Se esperaba una llave privada');
      return null;
    };
    let match: RegExpExecArray | null;

    if (method === 'GET' && (match = /^\/v1\/merchants\/([^/]+)$/.exec(path))) {
      const m = byKey(decodeURIComponent(match[1]!));
      return m?.publicKey === decodeURIComponent(match[1]!) ? ok({ id: 1, name: 'Comercio de pruebas', ...acceptance(m) }) : error(404, 'NOT_FOUND_ERROR', 'El comercio no existe');
    }
    if (method === 'GET' && path === '/v1/pse/financial_institutions') {
      return needs('public') ?? ok([
        { financial_institution_code: '1', financial_institution_name: 'Banco que aprueba' },
        { financial_institution_code: '2', financial_institution_name: 'Banco que rechaza' },
      ]);
    }
    if (method === 'POST' && path === '/v1/tokens/cards') {
      const denied = needs('public');
      if (denied) return denied;
      const number = String(body?.number ?? '').replace(/\s/g, '');
      const problems: Record<string, string[]> = {};
      if (!/^\d{13,19}$/.test(number)) problems.number = ['Número de tarjeta inválido'];
      if (!/^\d{3,4}$/.test(String(body?.cvc ?? ''))) problems.cvc = ['CVC inválido'];
      if (!/^\d{2}$/.test(String(body?.exp_month ?? ''))) problems.exp_month = ['Mes inválido'];
      if (!/^\d{2}$/.test(String(body?.exp_year ?? ''))) problems.exp_year = ['Año inválido'];
      if (!body?.card_holder) problems.card_holder = ['Requerido'];
      if (Object.keys(problems).length) return error(422, 'INPUT_VALIDATION_ERROR', problems);
      const id = `tok_test_${randomInt(10000)}_${rand()}`;
      const brand = number.startsWith('4') ? 'VISA' : number.startsWith('5') ? 'MASTERCARD' : 'AMEX';
      cardTokens.set(id, { final: CARD_OUTCOMES[number] ?? 'ERROR', brand, last_four: number.slice(-4), merchant: merchant! });
      return ok({ id, brand, name: `${brand} ${number.slice(-4)}`, last_four: number.slice(-4), bin: number.slice(0, 6), exp_month: body!.exp_month, exp_year: body!.exp_year, card_holder: body!.card_holder, created_at: new Date().toISOString(), expires_at: new Date(Date.now() + 15 * 60_000).toISOString() }, 201);
    }
    if (method === 'POST' && path === '/v1/tokens/nequi') {
      const denied = needs('public');
      if (denied) return denied;
      const phone = String(body?.phone_number ?? '');
      if (!/^3\d{9}$/.test(phone)) return error(422, 'INPUT_VALIDATION_ERROR', { phone_number: ['Número inválido'] });
      const id = `nequi_test_${rand()}`;
      nequiTokens.set(id, { phone, status: 'PENDING', final: NEQUI_OUTCOMES[phone] ?? 'ERROR' });
      return ok({ id, status: 'PENDING', phone_number: phone, name: 'Pruebas Nequi' }, 201);
    }
    if (method === 'GET' && (match = /^\/v1\/tokens\/nequi\/([^/]+)$/.exec(path))) {
      const denied = needs('public');
      if (denied) return denied;
      const token = nequiTokens.get(match[1]!);
      if (!token) return error(404, 'NOT_FOUND_ERROR', 'El token no existe');
      // The payer approves (or not) in the app while the page waits: decided by the first look.
      if (token.status === 'PENDING') token.status = token.final === 'APPROVED' ? 'APPROVED' : 'DECLINED';
      return ok({ id: match[1], status: token.status, phone_number: token.phone, name: 'Pruebas Nequi' });
    }
    if (method === 'POST' && path === '/v1/payment_sources') {
      const denied = needs('private');
      if (denied) return denied;
      const bad = consentProblem(merchant!, body);
      if (bad) return bad;
      const type = body?.type;
      const token = String(body?.token ?? '');
      let final: Final;
      if (type === 'CARD' && cardTokens.has(token)) final = cardTokens.get(token)!.final;
      else if (type === 'NEQUI' && nequiTokens.has(token)) {
        const nequi = nequiTokens.get(token)!;
        if (nequi.status !== 'APPROVED') return error(422, 'UNPROCESSABLE', 'El token de Nequi no ha sido aprobado');
        final = nequi.final;
      } else return error(422, 'INPUT_VALIDATION_ERROR', { token: ['Token inválido'] });
      const id = nextSource++;
      sources.set(id, { type, final, merchant: merchant! });
      return ok({ id, type, status: 'AVAILABLE', public_data: { type, ...(type === 'NEQUI' ? { phone_number: nequiTokens.get(token)!.phone } : {}) } }, 201);
    }
    if (method === 'POST' && path === '/v1/transactions') {
      const denied = needs('public');
      if (denied) return denied;
      const bad = consentProblem(merchant!, body);
      if (bad) return bad;
      const b = body ?? {};
      const reference = String(b.reference ?? '');
      const amount = b.amount_in_cents;
      if (!/^[A-Za-z0-9_-]{1,255}$/.test(reference) || !Number.isInteger(amount) || b.currency !== 'COP') {
        return error(422, 'INPUT_VALIDATION_ERROR', { reference: ['Referencia, monto o moneda inválidos'] });
      }
      const expected = integritySignature({ reference, amountInCents: amount as number, currency: 'COP' }, merchant!.integritySecret);
      if (b.signature !== expected) return error(422, 'INPUT_VALIDATION_ERROR', { signature: ['La firma es inválida'] });
      if ([...transactions.values()].some((t) => t.merchant === merchant && t.reference === reference)) {
        return error(422, 'INPUT_VALIDATION_ERROR', { reference: ['La referencia ya ha sido usada'] });
      }
      const pm = (b.payment_method ?? {}) as Record<string, unknown>;
      let final: Final;
      let type: string;
      let sourceId: number | null = null;
      if (b.payment_source_id !== undefined) {
        if (key !== merchant!.privateKey) return error(401, 'INVALID_ACCESS_TOKEN', 'Se esperaba una llave privada');
        const source = sources.get(Number(b.payment_source_id));
        if (!source || source.merchant !== merchant) return error(422, 'INPUT_VALIDATION_ERROR', { payment_source_id: ['No existe'] });
        ({ final, type } = source);
        sourceId = Number(b.payment_source_id);
      } else if (pm.type === 'CARD') {
        const token = cardTokens.get(String(pm.token));
        if (!token) return error(422, 'INPUT_VALIDATION_ERROR', { token: ['Token inválido'] });
        final = token.final;
        type = 'CARD';
      } else if (pm.type === 'NEQUI') {
        final = NEQUI_OUTCOMES[String(pm.phone_number)] ?? 'ERROR';
        type = 'NEQUI';
      } else if (pm.type === 'PSE') {
        if (String(pm.payment_description ?? '').length > 30) return error(422, 'INPUT_VALIDATION_ERROR', { payment_description: ['Máximo 30 caracteres'] });
        if (!b.redirect_url) return error(422, 'INPUT_VALIDATION_ERROR', { redirect_url: ['Requerido para PSE'] });
        final = PSE_OUTCOMES[String(pm.financial_institution_code)] ?? 'ERROR';
        type = 'PSE';
      } else return error(422, 'INPUT_VALIDATION_ERROR', { payment_method: ['Método de pago inválido'] });
      const id = `${10000 + randomInt(90000)}-${Math.floor(Date.now() / 1000)}-${String(randomInt(100000)).padStart(5, '0')}`;
      const t: Transaction = {
        id, reference, amount_in_cents: amount as number, currency: 'COP', customer_email: String(b.customer_email ?? ''),
        status: 'PENDING', final, payment_method_type: type,
        payment_method: { ...pm, type, ...(type === 'PSE' ? { extra: { async_payment_url: `${origin()}/bank/${id}` } } : {}) },
        payment_source_id: sourceId, redirect_url: (b.redirect_url as string) ?? null, recurrent: b.recurrent === true, merchant: merchant!,
      };
      transactions.set(id, t);
      settleLater(t);
      return ok(view(t), 201);
    }
    if (method === 'GET' && path === '/v1/transactions') {
      const denied = needs('private');
      if (denied) return denied;
      const reference = url.searchParams.get('reference');
      return ok([...transactions.values()].filter((t) => t.merchant === merchant && (!reference || t.reference === reference)).map(view));
    }
    if (method === 'GET' && (match = /^\/v1\/transactions\/([^/]+)$/.exec(path))) {
      const t = transactions.get(match[1]!);
      return t ? ok(view(t)) : error(404, 'NOT_FOUND_ERROR', 'La transacción no existe');
    }
    if (method === 'POST' && (match = /^\/v1\/transactions\/([^/]+)\/void$/.exec(path))) {
      const denied = needs('private');
      if (denied) return denied;
      const t = transactions.get(match[1]!);
      if (!t || t.merchant !== merchant) return error(404, 'NOT_FOUND_ERROR', 'La transacción no existe');
      if (t.payment_method_type !== 'CARD' || t.status !== 'APPROVED') return error(422, 'UNPROCESSABLE', 'Solo se anulan transacciones aprobadas con tarjeta');
      t.status = 'VOIDED';
      return ok({ transaction: view(t) });
    }
    return error(404, 'NOT_FOUND_ERROR', `No route ${method} ${path}`);
  }

  function consentProblem(m: DoubleMerchant, body: Record<string, unknown> | null): Reply | null {
    const { presigned_acceptance: a, presigned_personal_data_auth: p } = acceptance(m);
    if (body?.acceptance_token !== a.acceptance_token) return error(422, 'INPUT_VALIDATION_ERROR', { acceptance_token: ['Token de aceptación inválido'] });
    if (body?.accept_personal_auth !== p.acceptance_token) return error(422, 'INPUT_VALIDATION_ERROR', { accept_personal_auth: ['Autorización inválida'] });
    return null;
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://double');
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: Record<string, unknown> | null = null;
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
    } catch {
      body = null;
    }
    // Browsers tokenize here straight from the checkout page: Wompi answers cross-origin.
    const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': 'Authorization, Content-Type', 'Access-Control-Allow-Methods': 'GET, POST' };
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
      const back = new URL(t.redirect_url);
      back.searchParams.set('id', t.id);
      res.writeHead(302, { Location: back.toString() });
      return res.end();
    }
    requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, authorization: req.headers.authorization ?? null, body });
    const reply = handle(req.method ?? 'GET', url, req.headers.authorization ?? null, body);
    send(reply.status, reply.body, reply.headers);
  });

  function control(method: string, url: URL, body: Record<string, unknown> | null, send: (s: number, p: unknown) => void) {
    if (method === 'POST' && url.pathname === '/__control/merchants') {
      const m = body as unknown as DoubleMerchant;
      merchants.set(m.publicKey, m);
      return send(200, { ok: true });
    }
    if (method === 'GET' && url.pathname === '/__control/requests') return send(200, requests);
    if (method === 'GET' && url.pathname === '/__control/events') return send(200, events.map((e) => ({ url: e.url, status: e.status })));
    if (method === 'POST' && url.pathname === '/__control/settle-ms') {
      settleMs = Number(body?.settleMs ?? settleMs);
      return send(200, { settleMs });
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
    addMerchant: (m: DoubleMerchant) => void merchants.set(m.publicKey, m),
    setSettleMs: (ms: number) => void (settleMs = ms),
    buildEvent,
    sendEvent,
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

if (process.argv[1]?.endsWith('wompi-double.ts')) {
  const port = Number(process.argv[process.argv.indexOf('--port') + 1] || 0);
  void startWompiDouble({ port }).then((double) => console.log(`Wompi double on ${double.url}`));
}
