import { randomBytes } from 'node:crypto';
import type { APIRequestContext, FrameLocator, Page, Request } from '@playwright/test';
import { expect } from './checkout-helpers';
import type { RecordedRequest } from '../test/wompi-double';
import { BASE_URL, WOMPI_DOUBLE } from './fixtures';

// A merchant on Wompi against the local double (test/wompi-double.ts), for the journeys that pay
// or save a method there: the checkout's and the manage page's.

export async function useWompi(request: APIRequestContext, admin: APIRequestContext, merchantId: string, options: { pseUrl?: 'with-final' | 'while-pending' } = {}) {
  const id = randomBytes(8).toString('hex');
  const keys = { publicKey: `pub_test_${id}`, privateKey: `prv_test_${id}`, integritySecret: `test_integrity_${id}`, eventsSecret: `test_events_${id}` };
  const registered = await request.post(`${WOMPI_DOUBLE.origin}/__control/merchants`, {
    data: { ...keys, eventsUrl: `${BASE_URL}/processors/wompi/events/${merchantId}`, ...options },
  });
  expect(registered.status()).toBe(200);
  const res = await admin.patch(`/admin/merchants/${merchantId}`, { data: { processor: { type: 'wompi', ...keys } } });
  expect(res.status(), await res.text()).toBe(200);
  expect((await res.json()).processor).toEqual({ type: 'wompi', publicKey: keys.publicKey });
  return keys;
}

/**
 * What a request sends as values: its query's, and its body's (the names and leaves of JSON, or the
 * names and values of a form). A CVC is three digits, which a random token or a timestamp in a body
 * holds by chance now and then; it is looked for as a value, never as part of one.
 */
export function sentValues(req: Request): string[] {
  const query = [...new URL(req.url()).searchParams].flat();
  const body = req.postData();
  if (!body) return query;
  const leaves = (x: unknown): string[] => (x !== null && typeof x === 'object' ? Object.entries(x).flatMap(([k, v]) => [k, ...leaves(v)]) : [String(x)]);
  try {
    return [...query, ...leaves(JSON.parse(body))];
  } catch {
    return [...query, ...[...new URLSearchParams(body)].flat()];
  }
}

/** Every request the page makes, split by where it goes. */
export function watchRequests(page: Page) {
  const ours: Request[] = [];
  const wompi: Request[] = [];
  page.on('request', (req) => {
    const origin = new URL(req.url()).origin;
    if (origin === BASE_URL) ours.push(req);
    if (origin === WOMPI_DOUBLE.origin) wompi.push(req);
  });
  return { ours, wompi };
}

export async function acceptConsent(page: Page | FrameLocator) {
  await page.getByRole('checkbox', { name: /reglamento para usuarios pagadores/ }).check();
  await page.getByRole('checkbox', { name: /tratamiento de mis datos personales/ }).check();
}

/** Every request the Wompi double received (test/wompi-double.ts). */
export async function recordedAtWompi(request: APIRequestContext): Promise<RecordedRequest[]> {
  return (await (await request.get(`${WOMPI_DOUBLE.origin}/__control/requests`)).json()) as RecordedRequest[];
}

/** The acceptance tokens this merchant's payment sources and transactions carried: each may appear once. */
export async function consentTokensSpent(request: APIRequestContext, privateKey: string): Promise<string[]> {
  const mine = (await recordedAtWompi(request)).filter((r) => r.authorization === `Bearer ${privateKey}` && r.method === 'POST');
  return mine.flatMap((r) => [r.body?.acceptance_token, r.body?.accept_personal_auth]).filter((t): t is string => typeof t === 'string');
}
