import type { Consent } from '@/lib/processors/processor';
import { createWompiClient } from '@/lib/processors/wompi/client';

// The browser's calls to Wompi with the merchant's public key (docs/processors.md): the card is
// tokenized here, so its number and CVC go to Wompi and never to ServicePay; a Nequi account for a
// subscription is tokenized here too and waited on while the payer approves in the app; and each
// attempt fetches its own pair of acceptance tokens, which are single-use.

interface WompiReply<T> {
  data?: T;
  error?: { type?: string };
}

async function wompi<T>(apiUrl: string, publicKey: string, path: string, init: { method?: string; body?: unknown; signal: AbortSignal }): Promise<T> {
  const res = await fetch(`${apiUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: { Authorization: `Bearer ${publicKey}`, ...(init.body ? { 'Content-Type': 'application/json' } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
    signal: init.signal,
    cache: 'no-store',
    // The page sends no referrer anywhere: its address holds the checkout token.
    referrerPolicy: 'no-referrer',
  });
  const json = (await res.json().catch(() => ({}))) as WompiReply<T>;
  if (!res.ok || !json.data) throw new WompiBrowserError(res.status, json.error?.type ?? 'UNKNOWN');
  return json.data;
}

class WompiBrowserError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
  ) {
    super(`Wompi answered ${status} ${type}`);
  }
}

interface CardToken {
  id: string;
  brand: string;
  last_four: string;
}

/** Tokenizes a card at Wompi. `expiry` is MM/YY (or MM/YYYY). */
export function tokenizeCard(
  apiUrl: string,
  publicKey: string,
  card: { number: string; expMonth: number; expYear: number; cvc: string; holder: string },
  signal: AbortSignal,
): Promise<CardToken> {
  const body = {
    number: card.number,
    cvc: card.cvc,
    exp_month: String(card.expMonth).padStart(2, '0'),
    exp_year: String(card.expYear % 100).padStart(2, '0'),
    card_holder: card.holder,
  };
  return wompi<CardToken>(apiUrl, publicKey, '/tokens/cards', { method: 'POST', body, signal });
}

/** Tokenizes a Nequi account; the payer then approves it in the Nequi app (the token starts PENDING). */
export function tokenizeNequi(apiUrl: string, publicKey: string, phoneNumber: string, signal: AbortSignal): Promise<{ id: string; status: string }> {
  return wompi<{ id: string; status: string }>(apiUrl, publicKey, '/tokens/nequi', { method: 'POST', body: { phone_number: phoneNumber }, signal });
}

/** Tokenizes a Nequi account and waits while the payer approves it in the app (checked every `everyMs`). */
export async function approvedNequiToken(
  apiUrl: string,
  publicKey: string,
  phoneNumber: string,
  { signal, everyMs, sleep }: { signal: AbortSignal; everyMs: number; sleep: (ms: number, signal: AbortSignal) => Promise<void> },
): Promise<{ id: string; status: 'APPROVED' | 'DECLINED' }> {
  const token = await tokenizeNequi(apiUrl, publicKey, phoneNumber, signal);
  let status = token.status;
  while (status === 'PENDING') {
    await sleep(everyMs, signal);
    status = (await wompi<{ status: string }>(apiUrl, publicKey, `/tokens/nequi/${encodeURIComponent(token.id)}`, { signal })).status;
  }
  return { id: token.id, status: status === 'APPROVED' ? 'APPROVED' : 'DECLINED' };
}

/**
 * A new pair of acceptance tokens for one attempt (Wompi's tokens are single-use and expire in an
 * hour): fetched when the payer pays, after they accepted the documents, never reused.
 */
export async function freshConsent(apiUrl: string, publicKey: string, signal: AbortSignal): Promise<Consent> {
  const client = createWompiClient({
    baseUrl: apiUrl,
    publicKey,
    // The page sends no referrer anywhere: its address holds the checkout token.
    fetch: (input, init) => fetch(input, { ...init, signal, cache: 'no-store', referrerPolicy: 'no-referrer' }),
  });
  const merchant = await client.merchant();
  return { acceptanceToken: merchant.presigned_acceptance.acceptance_token, personalDataToken: merchant.presigned_personal_data_auth.acceptance_token };
}
