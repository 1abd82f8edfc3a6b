import { createHash } from 'node:crypto';
import { dianQrUrl, type DianEnvironment } from './cufe';
import { factusCreditNoteBody, factusInvoiceBody } from './factus-body';
import { callProvider, readDianMessage, unreadable, type CallOptions } from './http';
import { EInvoiceAuthError, EInvoiceRetryableError, type DianMessage, type DocumentLookup, type EInvoiceProvider, type IssueResult } from './provider';

// Factus API v2 (docs/einvoicing.md#factus): its account numbers each document, our reference as
// `reference_code` makes a repeat the same one. A rejected document is deleted (it blocks new ones).

export const FACTUS_SANDBOX_URL = 'https://api-sandbox.factus.com.co';
export const FACTUS_PRODUCTION_URL = 'https://api.factus.com.co';

export interface FactusCredentials {
  clientId: string;
  clientSecret: string;
  username: string;
  password: string;
  /** Only when the account has more than one active range. */
  numberingRangeId?: number | null;
}

type Parsed = IssueResult | { status: 'PENDING' };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** A map of rule → text. */
function factusMessages(errors: unknown): { rule: string; message: string; rejects: boolean }[] {
  if (isObject(errors)) return Object.entries(errors).map(([rule, text]) => readDianMessage(String(text), rule));
  if (Array.isArray(errors)) return errors.map((text) => readDianMessage(typeof text === 'string' ? text : JSON.stringify(text)));
  return [];
}

/** Validated → ISSUED, "Rechazo" → REJECTED, else PENDING; null if not a document. */
export function parseFactusDocument(json: unknown, kind: 'INVOICE' | 'CREDIT_NOTE', environment: DianEnvironment): Parsed | null {
  const data = isObject(json) ? json.data : undefined;
  if (!isObject(data)) return null;
  const number = str(data.number);
  const key = kind === 'INVOICE' ? str(data.cufe) : str(data.cude);
  const messages = factusMessages(data.errors);
  const toMessage = ({ rule, message }: { rule: string; message: string }): DianMessage => ({ rule, message });
  const rejections = messages.filter((m) => m.rejects);
  if (data.is_validated === true && number && key) {
    const links = isObject(data.links) ? data.links : {};
    return {
      status: 'ISSUED',
      number,
      cufe: key,
      qrUrl: str(links.qr) ?? str(data.qr) ?? dianQrUrl(key, environment),
      ...(str(links.public_url) ? { pdfUrl: str(links.public_url) } : {}),
      providerId: number,
      warnings: messages.filter((m) => !m.rejects).map(toMessage),
    };
  }
  if (rejections.length > 0) return { status: 'REJECTED', errors: rejections.map(toMessage) };
  return { status: 'PENDING' };
}

/** Laravel's `{ message, errors }` or a list. */
function validationErrors(json: unknown, status: number): DianMessage[] {
  const body = isObject(json) ? json : {};
  const errors = body.errors;
  if (isObject(errors)) {
    return Object.entries(errors).flatMap(([field, texts]) => (Array.isArray(texts) ? texts : [texts]).map((text) => ({ rule: field, message: String(text) })));
  }
  if (Array.isArray(errors)) return errors.map((e) => ({ rule: String(isObject(e) ? (e.code ?? status) : status), message: String(isObject(e) ? (e.message ?? JSON.stringify(e)) : e) }));
  return [{ rule: String(status), message: str(body.message) ?? `Factus answered HTTP ${status}` }];
}

const isDuplicate = (result: Parsed) => result.status === 'REJECTED' && result.errors.some((e) => e.rule === '90');

interface CachedToken {
  value: string;
  expiresAt: number;
}

/** Shared in this process: a burst asks for one. */
const tokens = new Map<string, CachedToken | Promise<CachedToken>>();

interface FactusOptions extends CallOptions {
  baseUrl: string;
  credentials: FactusCredentials;
  environment: DianEnvironment;
  now?: () => number;
}

export function createFactusProvider(options: FactusOptions): EInvoiceProvider {
  const { baseUrl, credentials, environment } = options;
  const now = options.now ?? Date.now;
  const cacheKey = createHash('sha256').update(JSON.stringify([baseUrl, credentials.clientId, credentials.clientSecret, credentials.username, credentials.password])).digest('hex');

  async function requestToken(): Promise<CachedToken> {
    const form = new URLSearchParams({
      grant_type: 'password',
      client_id: credentials.clientId,
      client_secret: credentials.clientSecret,
      username: credentials.username,
      password: credentials.password,
    });
    const reply = await callProvider('Factus', `${baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    }, { ...options, passStatuses: [400] });
    if (reply.status === 400) throw new EInvoiceAuthError('Factus refused the credentials (HTTP 400)');
    const body = isObject(reply.json) ? reply.json : {};
    const value = str(body.access_token);
    if (reply.status !== 200 || !value) throw unreadable('Factus', reply.status);
    // A minute early: the documented hour and the sample's 600 s disagree.
    const lifetime = typeof body.expires_in === 'number' ? body.expires_in : 600;
    return { value, expiresAt: now() + Math.max(0, lifetime - 60) * 1000 };
  }

  /** One request at a time per account. */
  async function accessToken(): Promise<string> {
    const cached = tokens.get(cacheKey);
    if (cached && !(cached instanceof Promise) && now() < cached.expiresAt) return cached.value;
    if (cached instanceof Promise) return (await cached).value;
    const pending = requestToken();
    tokens.set(cacheKey, pending);
    try {
      const fresh = await pending;
      tokens.set(cacheKey, fresh);
      return fresh.value;
    } catch (error) {
      tokens.delete(cacheKey);
      throw error;
    }
  }

  const dropToken = (value: string) => {
    const cached = tokens.get(cacheKey);
    if (cached && !(cached instanceof Promise) && cached.value === value) tokens.delete(cacheKey);
  };

  /** A 401 drops the token and tries once more. */
  async function api(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) {
    for (let attempt = 0; ; attempt++) {
      const bearer = await accessToken();
      try {
        return await callProvider('Factus', `${baseUrl}${path}`, {
          method,
          headers: { Accept: 'application/json', Authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }, { ...options, passStatuses: [400, 404, 409, 422] });
      } catch (error) {
        if (!(error instanceof EInvoiceAuthError) || attempt > 0) throw error;
        dropToken(bearer);
      }
    }
  }

  const routes = (kind: 'INVOICE' | 'CREDIT_NOTE') => (kind === 'INVOICE' ? '/v2/bills' : '/v2/credit-notes');

  async function find(lookup: DocumentLookup): Promise<Parsed | null> {
    let number = lookup.providerId ?? lookup.number;
    if (!number) {
      const list = await api('GET', `${routes(lookup.kind)}?filter[reference_code]=${encodeURIComponent(lookup.reference)}`);
      const page = isObject(list.json) && isObject(list.json.data) ? list.json.data.data : undefined;
      if (list.status === 404) return null;
      if (!Array.isArray(page)) throw unreadable('Factus', list.status);
      const match = page.find((doc) => isObject(doc) && doc.reference_code === lookup.reference);
      number = isObject(match) ? str(match.number) : undefined;
      if (!number) return null;
    }
    const reply = await api('GET', `${routes(lookup.kind)}/${encodeURIComponent(number)}`);
    if (reply.status === 404) return null;
    const parsed = parseFactusDocument(reply.json, lookup.kind, environment);
    if (!parsed) throw unreadable('Factus', reply.status);
    return parsed;
  }

  async function issue(kind: 'INVOICE' | 'CREDIT_NOTE', reference: string, body: Record<string, unknown>, retried = false): Promise<IssueResult> {
    const path = `${routes(kind)}/validate`;
    const reply = await api('POST', path, body);
    if (reply.status === 400 || reply.status === 422) return { status: 'REJECTED', errors: validationErrors(reply.json, reply.status) };
    if (reply.status === 409) {
      const existing = await find({ kind, reference });
      if (existing?.status === 'ISSUED') return existing;
      if (existing?.status === 'REJECTED' && !retried) {
        await api('DELETE', `${routes(kind)}/destroy/reference/${encodeURIComponent(reference)}`);
        return issue(kind, reference, body, true);
      }
      const message = isObject(reply.json) ? str(reply.json.message) : undefined;
      throw new EInvoiceRetryableError(`Factus answered 409: ${message ?? 'a pending document blocks new ones'}`);
    }
    if (reply.status === 404) throw unreadable('Factus', reply.status);
    const parsed = parseFactusDocument(reply.json, kind, environment);
    if (!parsed) throw unreadable('Factus', reply.status);
    if (isDuplicate(parsed)) {
      const existing = await find({ kind, reference });
      if (existing?.status === 'ISSUED') return existing;
    }
    if (parsed.status === 'PENDING') throw new EInvoiceRetryableError('DIAN has not validated the document yet; the same draft is sent again later');
    if (parsed.status === 'REJECTED') {
      // A rejected document blocks new ones until deleted; it spent no number, so the draft is sent anew.
      await api('DELETE', `${routes(kind)}/destroy/reference/${encodeURIComponent(reference)}`).catch(() => undefined);
    }
    return parsed;
  }

  return {
    kind: 'factus',
    numbering: 'provider',
    async checkCredentials() {
      tokens.delete(cacheKey);
      await accessToken();
    },
    issueInvoice: (draft) => issue('INVOICE', draft.reference, factusInvoiceBody(draft, credentials.numberingRangeId)),
    issueCreditNote: (draft) => issue('CREDIT_NOTE', draft.reference, factusCreditNoteBody(draft)),
    async findDocument(lookup) {
      const found = await find(lookup);
      return found && found.status !== 'PENDING' ? found : null;
    },
  };
}
