import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWompiDouble, testWompiKeys, type WompiDouble } from '@/test/wompi-double';
import { productionProblem, runWompiCheck } from './wompi';

// `npm run wompi:check` against the local double (never the network): every step green and named
// when Wompi answers as the reference says; a reply that differs fails the run and says how.

let double: WompiDouble;
const keys = testWompiKeys();
beforeAll(async () => {
  double = await startWompiDouble({ settleMs: 20 });
  double.addMerchant(keys);
});
afterAll(() => double.close());

const STEPS = [
  'consent: GET /merchants/info with x-merchant-public-key',
  'consent: the browser may fetch it (CORS preflight allows x-merchant-public-key)',
  'card token: POST /tokens/cards (4242 4242 4242 4242)',
  'card token: a holder under 5 characters ("Ana") is refused on card_holder',
  'payment source: POST /payment_sources with a fresh pair',
  'consent: a pair is single-use (sent again, it is refused on acceptance_token)',
  'charge: POST /transactions of the saved source, no acceptance tokens, recurrent',
  'read: GET /transactions/{id} with the private key until final',
  'reference lookup: GET /transactions?reference=…',
  'void: POST /transactions/{id}/void, then the charge reads VOIDED',
  'Nequi: POST /tokens/nequi (3991111111), read until APPROVED',
  'PSE: GET /pse/financial_institutions',
  'PSE: a charge with bank 1, its bank URL and final status',
];

const run = (extra: Partial<Parameters<typeof runWompiCheck>[0]> = {}) => {
  const lines: string[] = [];
  return runWompiCheck({ ...keys, apiUrl: double.url, pollMs: 10, patienceMs: 3000, print: (line) => lines.push(line), ...extra }).then((result) => ({ ...result, lines }));
};

describe('npm run wompi:check', () => {
  it('runs green against the double and names each step in its report', async () => {
    const first = await run();
    expect(first.steps.map((s) => s.step)).toEqual(STEPS);
    expect(first.ok).toBe(true);
    // An event Wompi sent about one of those charges, as a merchant would have stored it.
    const result = await run({ storedEvent: double.buildEvent([...double.transactions.keys()][0]!) });
    expect(result.steps.filter((s) => !s.ok)).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.steps.map((s) => s.step)).toEqual([...STEPS, "events: the stored event's checksum"]);
    for (const step of STEPS) expect(result.lines.some((line) => line.startsWith(`✓ ${step}`))).toBe(true);
    expect(result.lines.at(-1)).toMatch(/All 14 steps answered as ServicePay expects/);
  });

  it('fails, naming the difference, when a reply is not what our client expects', async () => {
    // Wompi answering a void with the charge's own status (what the first reference assumed).
    const altered: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (!String(input).endsWith('/void')) return res;
      const body = (await res.json()) as { data: { transaction: unknown } };
      return new Response(JSON.stringify({ data: body.data.transaction }), { status: res.status, headers: res.headers });
    };
    const result = await run({ fetch: altered });
    expect(result.ok).toBe(false);
    const voided = result.steps.find((s) => s.step.startsWith('void:'))!;
    expect(voided.ok).toBe(false);
    expect(voided.differences.join('\n')).toMatch(/status|transaction/);
    expect(result.lines.some((line) => line.startsWith('    difference:'))).toBe(true);
  });

  it('fails when the consent endpoint is gone, and on a forged stored event', async () => {
    const noInfo: typeof fetch = async (input, init) => (String(input).endsWith('/merchants/info') ? new Response('{"error":{"type":"NOT_FOUND_ERROR"}}', { status: 404 }) : fetch(input, init));
    const result = await run({ fetch: noInfo, storedEvent: { event: 'transaction.updated', data: { transaction: { id: '1' } }, signature: { properties: ['transaction.id'], checksum: 'ABC' }, timestamp: 1 }, eventsSecret: keys.eventsSecret });
    expect(result.ok).toBe(false);
    expect(result.steps[0]).toMatchObject({ ok: false, differences: [expect.stringMatching(/answered 404/)] });
    expect(result.steps.at(-1)).toMatchObject({ ok: false, detail: 'checksum does not match' });
  });

  it.each([
    [{ publicKey: 'pub_prod_x' }, /public key must be a TEST key/],
    [{ privateKey: 'prv_prod_x' }, /private key must be a TEST key/],
    [{ integritySecret: 'prod_integrity_x' }, /integrity secret/],
    [{ eventsSecret: 'prod_events_x' }, /events secret/],
    [{ apiUrl: 'https://production.wompi.co/v1' }, /production URL/],
  ])('refuses production keys or URL %o before any call', async (override, message) => {
    expect(productionProblem({ ...keys, ...override })).toMatch(message);
    const before = double.requests.length;
    const result = await run(override);
    expect(result).toMatchObject({ ok: false, steps: [{ step: 'keys', ok: false }] });
    expect(double.requests.length).toBe(before);
  });
});
