import { EInvoiceAuthError, EInvoiceRetryableError } from './provider';

// One HTTP call to a provider: a deadline, JSON read once, shared statuses as the port's errors.

/** The default of EINVOICE_CALL_TIMEOUT_MS. */
export const PROVIDER_CALL_TIMEOUT_MS = 30_000;

export interface ProviderReply {
  status: number;
  json: unknown;
  headers: Headers;
}

export interface CallOptions {
  fetch?: typeof fetch;
  timeoutMs?: number;
}

export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const value = headers.get('retry-after');
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Retryable: network, timeout, 408, 429, 5xx; auth: 401/403. */
export async function callProvider(
  provider: string,
  url: string,
  init: { method: 'GET' | 'POST' | 'DELETE'; headers: Record<string, string>; body?: string },
  options: CallOptions & { passStatuses?: number[] } = {},
): Promise<ProviderReply> {
  const doFetch = options.fetch ?? fetch;
  let res: Response;
  let text: string;
  try {
    res = await doFetch(url, { ...init, signal: AbortSignal.timeout(options.timeoutMs ?? PROVIDER_CALL_TIMEOUT_MS), redirect: 'error' });
    text = await res.text();
  } catch (error) {
    const what = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError') ? 'did not answer in time' : 'could not be reached';
    throw new EInvoiceRetryableError(`${provider} ${what} (${init.method} ${new URL(url).pathname})`, undefined, { cause: error });
  }
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  const pass = options.passStatuses ?? [];
  if (!pass.includes(res.status)) {
    if (res.status === 401 || res.status === 403) throw new EInvoiceAuthError(`${provider} refused the credentials (HTTP ${res.status})`);
    if (res.status === 408 || res.status === 429 || res.status >= 500) {
      throw new EInvoiceRetryableError(`${provider} answered HTTP ${res.status}`, retryAfterMs(res.headers));
    }
  }
  return { status: res.status, json, headers: res.headers };
}

/** Retryable, since the document may exist. */
export function unreadable(provider: string, status: number): EInvoiceRetryableError {
  return new EInvoiceRetryableError(`${provider} answered HTTP ${status} with a body we cannot read`);
}

/** "Regla: FAD06, Rechazo: …": the rule and whether it rejects. */
export function readDianMessage(text: string, fallbackRule = 'DIAN'): { rule: string; message: string; rejects: boolean } {
  const rule = /Regla:\s*([A-Za-z0-9]+)/i.exec(text)?.[1] ?? fallbackRule;
  return { rule, message: text.trim(), rejects: /rechazo/i.test(text) };
}
