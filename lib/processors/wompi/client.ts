// A small typed client of the Wompi calls we make (docs/processors.md). The published SDK drops
// fields Wompi needs (accept_personal_auth, recurrent). `baseUrl` ends in /v1.

export const WOMPI_SANDBOX_URL = 'https://sandbox.wompi.co/v1';
const WOMPI_PRODUCTION_URL = 'https://production.wompi.co/v1';

/** `WOMPI_API_URL` when set (a local double), else by the key's prefix. */
export function wompiBaseUrl(publicKey: string, override?: string): string {
  if (override) return override.replace(/\/+$/, '');
  return publicKey.startsWith('pub_prod_') ? WOMPI_PRODUCTION_URL : WOMPI_SANDBOX_URL;
}

type WompiTransactionStatus = 'PENDING' | 'APPROVED' | 'DECLINED' | 'VOIDED' | 'ERROR';

export interface WompiTransaction {
  id: string;
  reference: string;
  amount_in_cents: number;
  currency: string;
  status: WompiTransactionStatus;
  status_message?: string | null;
  payment_method_type?: string;
  payment_method?: { type?: string; extra?: { async_payment_url?: string; brand?: string; last_four?: string } };
  payment_source_id?: number | null;
  customer_email?: string;
}

interface WompiAcceptance {
  acceptance_token: string;
  permalink: string;
  type: string;
}

interface WompiMerchant {
  presigned_acceptance: WompiAcceptance;
  presigned_personal_data_auth: WompiAcceptance;
}

interface WompiPaymentSource {
  id: number;
  type: 'CARD' | 'NEQUI';
  status: string;
  public_data?: { type?: string; phone_number?: string };
}

interface WompiCardToken {
  id: string;
  brand: string;
  last_four: string;
}

interface WompiNequiToken {
  id: string;
  status: 'PENDING' | 'APPROVED' | 'DECLINED';
  phone_number: string;
}

/** The void's own status, and the transaction as it stood (still APPROVED). */
interface WompiVoid {
  status: 'APPROVED' | 'DECLINED' | 'PENDING';
  status_message?: string | null;
  transaction?: WompiTransaction;
}

interface WompiInstitution {
  financial_institution_code: string;
  financial_institution_name: string;
}

/** A fresh pair of acceptance tokens goes with a token or payment method; a saved source carries none. */
export interface CreateTransaction {
  acceptance_token?: string;
  accept_personal_auth?: string;
  amount_in_cents: number;
  currency: 'COP';
  /** Left out when unknown: Wompi refuses an empty one. */
  customer_email?: string;
  reference: string;
  signature: string;
  payment_method?: Record<string, unknown>;
  payment_source_id?: number;
  recurrent?: boolean;
  redirect_url?: string;
  customer_data?: { phone_number?: string; full_name?: string };
}

export class WompiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly reason: unknown,
    /** A 429's Retry-After in ms. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(`Wompi answered ${status} ${type}: ${typeof reason === 'string' ? reason : JSON.stringify(reason)}`);
    this.name = 'WompiError';
  }
}

/** Seconds or an HTTP date, in ms; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (header.trim() !== '' && Number.isFinite(seconds)) return Math.max(0, Math.round(seconds * 1000));
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The settler waits well past it. */
export const WOMPI_CALL_TIMEOUT_MS = 15_000;

interface WompiClientOptions {
  baseUrl: string;
  publicKey: string;
  privateKey?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export function createWompiClient(options: WompiClientOptions) {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? WOMPI_CALL_TIMEOUT_MS;

  async function call<T>(method: 'GET' | 'POST', path: string, auth: 'public' | 'private' | 'none', body?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const key = auth === 'public' ? options.publicKey : auth === 'private' ? options.privateKey : undefined;
    if (auth === 'private' && !key) throw new Error('This Wompi call needs the private key');
    const res = await doFetch(`${options.baseUrl}${path}`, {
      method,
      headers: {
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(key ? { Authorization: `Bearer ${key}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    const json = (await res.json().catch(() => null)) as { data?: T; error?: { type?: string; reason?: unknown; messages?: unknown } } | null;
    if (!res.ok || !json || json.error || json.data === undefined) {
      throw new WompiError(res.status, json?.error?.type ?? 'UNEXPECTED_REPLY', json?.error?.reason ?? json?.error?.messages ?? null, retryAfterMs(res.headers.get('retry-after')));
    }
    return json.data;
  }

  /** A fresh single-use pair (the deprecated path form only on a 404). */
  async function merchant(): Promise<WompiMerchant> {
    try {
      return await call<WompiMerchant>('GET', '/merchants/info', 'none', undefined, { 'x-merchant-public-key': options.publicKey });
    } catch (error) {
      if (!(error instanceof WompiError && error.status === 404)) throw error;
      return call<WompiMerchant>('GET', `/merchants/${encodeURIComponent(options.publicKey)}`, 'none');
    }
  }

  return {
    merchant,
    tokenizeCard: (card: { number: string; cvc: string; exp_month: string; exp_year: string; card_holder: string }) =>
      call<WompiCardToken>('POST', '/tokens/cards', 'public', card),
    tokenizeNequi: (phoneNumber: string) => call<WompiNequiToken>('POST', '/tokens/nequi', 'public', { phone_number: phoneNumber }),
    nequiToken: (id: string) => call<WompiNequiToken>('GET', `/tokens/nequi/${encodeURIComponent(id)}`, 'public'),
    createPaymentSource: (body: {
      type: 'CARD' | 'NEQUI';
      token: string;
      customer_email: string;
      acceptance_token: string;
      accept_personal_auth: string;
    }) => call<WompiPaymentSource>('POST', '/payment_sources', 'private', body),
    createTransaction: (body: CreateTransaction) => call<WompiTransaction>('POST', '/transactions', 'private', body),
    /** Read with the private key where the client has it. */
    transaction: (id: string) => call<WompiTransaction>('GET', `/transactions/${encodeURIComponent(id)}`, options.privateKey ? 'private' : 'public'),
    transactionsByReference: (reference: string) =>
      call<WompiTransaction[]>('GET', `/transactions?reference=${encodeURIComponent(reference)}`, 'private'),
    voidTransaction: (id: string) => call<WompiVoid>('POST', `/transactions/${encodeURIComponent(id)}/void`, 'private', {}),
    pseInstitutions: () => call<WompiInstitution[]>('GET', '/pse/financial_institutions', 'public'),
  };
}

