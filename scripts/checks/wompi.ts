// The steps of `npm run wompi:check` (docs/processors.md#checking-against-wompis-sandbox): the
// calls ServicePay makes, run against Wompi's sandbox with a merchant's TEST keys, each reply
// compared with what our client expects. Test keys only: it charges, voids and spends consent tokens.
import { z } from 'zod';
import { createWompiClient, WOMPI_SANDBOX_URL, type WompiTransaction } from '@/lib/processors/wompi/client';
import { integritySignature, verifyEventChecksum, type WompiEvent } from '@/lib/processors/wompi/signatures';
import { differencesOf, type StepResult, stepRunner } from './steps';

interface CheckOptions {
  publicKey: string;
  privateKey: string;
  integritySecret: string;
  eventsSecret?: string;
  /** Defaults to Wompi's sandbox. */
  apiUrl?: string;
  /** An event Wompi sent (its JSON body), to check the checksum against `eventsSecret`. */
  storedEvent?: unknown;
  fetch?: typeof fetch;
  /** How often a PENDING reply is read again, and for how long at most. */
  pollMs?: number;
  patienceMs?: number;
  /** Where each step's line goes. */
  print?: (line: string) => void;
}

/** Refused: production keys or Wompi's production URL (the check charges and voids). */
export function productionProblem(options: Pick<CheckOptions, 'publicKey' | 'privateKey' | 'integritySecret' | 'eventsSecret' | 'apiUrl'>): string | null {
  const { publicKey, privateKey, integritySecret, eventsSecret, apiUrl } = options;
  if (!publicKey.startsWith('pub_test_')) return 'the public key must be a TEST key (pub_test_…): this check charges and voids';
  if (!privateKey.startsWith('prv_test_')) return 'the private key must be a TEST key (prv_test_…): this check charges and voids';
  if (!integritySecret.startsWith('test_integrity_')) return 'the integrity secret must be a TEST secret (test_integrity_…)';
  if (eventsSecret && !eventsSecret.startsWith('test_events_')) return 'the events secret must be a TEST secret (test_events_…)';
  if (apiUrl && /production\.wompi\.co/.test(apiUrl)) return "Wompi's production URL is refused: point it at the sandbox";
  return null;
}

const document = (type: string) => z.object({ acceptance_token: z.string().min(20), permalink: z.url(), type: z.literal(type) });
const merchantInfo = z.object({ presigned_acceptance: document('END_USER_POLICY'), presigned_personal_data_auth: document('PERSONAL_DATA_AUTH') });
const cardToken = z.object({ id: z.string().regex(/^tok_/), brand: z.string().min(1), last_four: z.literal('4242') });
const paymentSource = z.object({ id: z.number().int(), type: z.literal('CARD'), status: z.literal('AVAILABLE') });
const transactionId = z.string().regex(/^\d+(-\d+)+$/, 'hyphen-separated numeric parts, as our API promises (docs/api.md)');
const transaction = z.object({ id: transactionId, reference: z.string(), amount_in_cents: z.number().int(), status: z.enum(['PENDING', 'APPROVED', 'DECLINED', 'VOIDED', 'ERROR']) });
const voidReply = z.object({ status: z.enum(['APPROVED', 'PENDING', 'DECLINED']), transaction: z.object({ id: z.string(), status: z.string() }) });
const nequiToken = z.object({ id: z.string().regex(/^nequi_/), status: z.enum(['PENDING', 'APPROVED', 'DECLINED']) });
const banks = z.array(z.object({ financial_institution_code: z.string(), financial_institution_name: z.string() })).min(1);

/** Runs every step in order; a step that cannot run (an earlier one failed) says so. */
export async function runWompiCheck(options: CheckOptions): Promise<{ ok: boolean; steps: StepResult[] }> {
  const print = options.print ?? console.log;
  const refused = productionProblem(options);
  const { steps, step, skipped, fail } = stepRunner(print);
  if (refused) {
    fail('keys', refused);
    return { ok: false, steps };
  }
  const apiUrl = (options.apiUrl ?? WOMPI_SANDBOX_URL).replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const pollMs = options.pollMs ?? 1000;
  const patienceMs = options.patienceMs ?? 30_000;
  const client = createWompiClient({ baseUrl: apiUrl, publicKey: options.publicKey, privateKey: options.privateKey, fetch: doFetch });
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;

  async function raw(method: string, path: string, init: { key?: string; headers?: Record<string, string>; body?: unknown } = {}) {
    const res = await doFetch(`${apiUrl}${path}`, {
      method,
      headers: { Accept: 'application/json', ...(init.key ? { Authorization: `Bearer ${init.key}` } : {}), ...(init.body ? { 'Content-Type': 'application/json' } : {}), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: 'error',
    });
    return { status: res.status, headers: res.headers, json: (await res.json().catch(() => null)) as { data?: unknown; error?: { type?: string; messages?: Record<string, unknown> } } | null };
  }
  async function freshPair() {
    const info = await client.merchant();
    return { acceptance_token: info.presigned_acceptance.acceptance_token, accept_personal_auth: info.presigned_personal_data_auth.acceptance_token };
  }
  /** Reads a transaction until it leaves PENDING (or `done` says so), within the patience. */
  async function readUntil(id: string, done: (t: WompiTransaction) => boolean) {
    const deadline = Date.now() + patienceMs;
    for (;;) {
      const t = await client.transaction(id);
      if (done(t) || Date.now() > deadline) return t;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }
  const signed = (reference: string, amount: number) => ({
    reference,
    amount_in_cents: amount,
    currency: 'COP' as const,
    signature: integritySignature({ reference, amountInCents: amount, currency: 'COP' }, options.integritySecret),
  });

  // 1. Consent, as the browser fetches it for each attempt.
  const pair = await step('consent: GET /merchants/info with x-merchant-public-key', async () => {
    const reply = await raw('GET', '/merchants/info', { headers: { 'x-merchant-public-key': options.publicKey } });
    const differences = reply.status === 200 ? differencesOf(merchantInfo, reply.json?.data) : [`answered ${reply.status} (our client then tries the deprecated /merchants/{public_key})`];
    const again = await freshPair();
    const first = reply.json?.data as z.infer<typeof merchantInfo> | undefined;
    if (first && again.acceptance_token === first.presigned_acceptance?.acceptance_token) differences.push('a second GET returned the same acceptance token: we assume each GET hands out a new single-use pair');
    return { value: again, detail: `${reply.status}, both documents and a new pair on each GET`, differences };
  });
  await step('consent: the browser may fetch it (CORS preflight allows x-merchant-public-key)', async () => {
    const res = await doFetch(`${apiUrl}/merchants/info`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://checkout.example.com', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'x-merchant-public-key' },
    });
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    const ok = res.status < 400 && (allowed === '*' || allowed.split(',').map((h) => h.trim()).includes('x-merchant-public-key')) && Boolean(res.headers.get('access-control-allow-origin'));
    return { value: true, detail: `preflight ${res.status}, allow-headers "${allowed}"`, differences: ok ? [] : ['the browser could not send x-merchant-public-key: the checkout fetches its consent pair from the page (components/checkout/wompi-browser.ts)'] };
  });

  // 2. Card token, and the holder rule our form applies before any call.
  const token = await step('card token: POST /tokens/cards (4242 4242 4242 4242)', async () => {
    const value = await client.tokenizeCard({ number: '4242424242424242', cvc: '123', exp_month: '08', exp_year: String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0'), card_holder: 'Prueba ServicePay' });
    return { value, detail: `token ${value.id}`, differences: differencesOf(cardToken, value) };
  });
  await step('card token: a holder under 5 characters ("Ana") is refused on card_holder', async () => {
    const reply = await raw('POST', '/tokens/cards', { key: options.publicKey, body: { number: '4242424242424242', cvc: '123', exp_month: '08', exp_year: '30', card_holder: 'Ana' } });
    const ok = reply.status === 422 && Boolean(reply.json?.error?.messages?.card_holder);
    return { value: true, detail: `answered ${reply.status}`, differences: ok ? [] : [`expected 422 on card_holder (our form asks for 5 characters): got ${reply.status} ${JSON.stringify(reply.json?.error ?? null)}`] };
  });

  // 3. Payment source with the pair; the pair refused a second time.
  const source = token && pair
    ? await step('payment source: POST /payment_sources with a fresh pair', async () => {
        const value = await client.createPaymentSource({ type: 'CARD', token: token.id, customer_email: 'wompi-check@example.com', ...pair });
        return { value, detail: `source ${value.id}`, differences: differencesOf(paymentSource, value) };
      })
    : skipped('payment source: POST /payment_sources with a fresh pair', 'no card token or consent pair');
  if (pair && source) {
    await step('consent: a pair is single-use (sent again, it is refused on acceptance_token)', async () => {
      const again = await client.tokenizeCard({ number: '4242424242424242', cvc: '123', exp_month: '08', exp_year: '30', card_holder: 'Prueba ServicePay' });
      const reply = await raw('POST', '/payment_sources', { key: options.privateKey, body: { type: 'CARD', token: again.id, customer_email: 'wompi-check@example.com', ...pair } });
      const ok = reply.status === 422 && Boolean(reply.json?.error?.messages?.acceptance_token);
      return { value: true, detail: `answered ${reply.status}`, differences: ok ? [] : [`expected 422 on acceptance_token: got ${reply.status} ${JSON.stringify(reply.json?.error ?? null)}`] };
    });
  }

  // 4. The saved source charged without consent, read, found by reference, voided.
  const reference = `wompicheck_${stamp}`;
  const charged = source
    ? await step('charge: POST /transactions of the saved source, no acceptance tokens, recurrent', async () => {
        const value = await client.createTransaction({ ...signed(reference, 150000), customer_email: 'wompi-check@example.com', payment_source_id: source.id, payment_method: { installments: 1 }, recurrent: true });
        const differences = differencesOf(transaction, value);
        if (value.status !== 'PENDING') differences.push(`expected PENDING in the creation reply, got ${value.status}`);
        return { value, detail: `${value.id} ${value.status}`, differences };
      })
    : skipped('charge: POST /transactions of the saved source, no acceptance tokens, recurrent', 'no payment source');
  const approved = charged
    ? await step('read: GET /transactions/{id} with the private key until final', async () => {
        const value = await readUntil(charged.id, (t) => t.status !== 'PENDING');
        return { value, detail: value.status, differences: [...differencesOf(transaction, value), ...(value.status === 'APPROVED' ? [] : [`expected APPROVED for 4242…, got ${value.status}`])] };
      })
    : skipped('read: GET /transactions/{id} with the private key until final', 'no charge');
  if (charged) {
    await step('reference lookup: GET /transactions?reference=…', async () => {
      const found = await client.transactionsByReference(reference);
      const mine = found.find((t) => t.reference === reference);
      const missing = await client.transactionsByReference(`wompicheck_never_${stamp}`);
      const differences = [...(mine?.id === charged.id ? [] : ['the charge was not found by its reference']), ...(missing.length === 0 ? [] : ['an unknown reference did not answer an empty list'])];
      return { value: true, detail: mine ? `found ${mine.id}` : 'not found', differences };
    });
  } else skipped('reference lookup: GET /transactions?reference=…', 'no charge');
  if (approved) {
    await step('void: POST /transactions/{id}/void, then the charge reads VOIDED', async () => {
      const reply = await raw('POST', `/transactions/${encodeURIComponent(approved.id)}/void`, { key: options.privateKey, body: {} });
      const differences = reply.status === 200 ? differencesOf(voidReply, reply.json?.data) : [`answered ${reply.status} ${JSON.stringify(reply.json?.error ?? null)}`];
      const voidStatus = (reply.json?.data as { status?: string } | undefined)?.status;
      if (voidStatus === 'DECLINED') differences.push('the void was DECLINED');
      const after = await readUntil(approved.id, (t) => t.status === 'VOIDED');
      if (after.status !== 'VOIDED') differences.push(`the charge still reads ${after.status} after the void`);
      return { value: true, detail: `void ${voidStatus ?? '?'}, charge ${after.status}`, differences };
    });
  } else skipped('void: POST /transactions/{id}/void, then the charge reads VOIDED', 'no approved charge');

  // 5. Nequi.
  await step('Nequi: POST /tokens/nequi (3991111111), read until APPROVED', async () => {
    const created = await client.tokenizeNequi('3991111111');
    const differences = differencesOf(nequiToken, created);
    const deadline = Date.now() + patienceMs;
    let status = created.status;
    while (status === 'PENDING' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      status = (await client.nequiToken(created.id)).status;
    }
    if (status !== 'APPROVED') differences.push(`expected APPROVED, got ${status}`);
    return { value: true, detail: `${created.id} ${status}`, differences };
  });

  // 6. PSE: banks, and a charge with bank 1.
  const bankList = await step('PSE: GET /pse/financial_institutions', async () => {
    const value = await client.pseInstitutions();
    const differences = differencesOf(banks, value);
    if (!value.some((b) => b.financial_institution_code === '1')) differences.push('no bank "1" (Banco que aprueba)');
    return { value, detail: value.map((b) => `${b.financial_institution_code} ${b.financial_institution_name}`).join('; '), differences };
  });
  if (bankList) {
    await step('PSE: a charge with bank 1, its bank URL and final status', async () => {
      const created = await client.createTransaction({
        ...signed(`${reference}_pse`, 150000),
        ...(await freshPair()),
        customer_email: 'wompi-check@example.com',
        redirect_url: 'https://example.com/wompi-check',
        payment_method: { type: 'PSE', user_type: 0, user_legal_id_type: 'CC', user_legal_id: '1020304050', financial_institution_code: '1', payment_description: 'Prueba ServicePay' },
        customer_data: { phone_number: '573145678901', full_name: 'Prueba ServicePay' },
      });
      const differences = differencesOf(transaction, created);
      const final = await readUntil(created.id, (t) => t.status !== 'PENDING');
      const url = final.payment_method?.extra?.async_payment_url;
      if (!url) differences.push('no payment_method.extra.async_payment_url');
      if (final.status !== 'APPROVED') differences.push(`expected APPROVED for bank 1, got ${final.status}`);
      const inCreation = Boolean(created.payment_method?.extra?.async_payment_url);
      return { value: true, detail: `${created.id} ${final.status}; URL ${inCreation ? 'already in the creation reply' : 'not in the creation reply'}`, differences };
    });
  } else skipped('PSE: a charge with bank 1, its bank URL and final status', 'no bank list');

  // 7. An event Wompi sent, if given.
  if (options.storedEvent !== undefined) {
    await step('events: the stored event\'s checksum', async () => {
      if (!options.eventsSecret) return { value: false, detail: 'no events secret', differences: ['give the events secret (WOMPI_EVENTS_SECRET) to check an event'] };
      const event = options.storedEvent as WompiEvent;
      const ok = Boolean(event?.signature?.properties && event.data) && verifyEventChecksum(event, options.eventsSecret);
      return { value: ok, detail: ok ? `${event.event} checksum matches` : 'checksum does not match', differences: ok ? [] : ['the checksum computed from signature.properties, timestamp and the events secret does not match'] };
    });
  }

  const ok = steps.every((s) => s.ok);
  print(ok ? `\nAll ${steps.length} steps answered as ServicePay expects.` : `\n${steps.filter((s) => !s.ok).length} of ${steps.length} steps differ from what ServicePay expects.`);
  return { ok, steps };
}

