import { after } from 'next/server';
import type { Db } from '@/db/client';
import type { ApiVersion } from '@/lib/api-versions';
import { findApiKey, touchApiKeys } from '@/db/queries/api-keys';
import { type ApiError, bearerUnauthorized } from '@/lib/api/errors';
import { errorFields, log } from '@/lib/log';
import type { CachedKey, KeyCache } from './key-cache';
import { secretMatchesHash, sha256Hex } from './secrets';

export interface AuthenticatedMerchant {
  merchantId: string;
  apiKey: string;
  /** The version a request naming none is answered in (docs/api.md#versioning). */
  pinnedVersion: ApiVersion;
}

const API_KEY = /^pk_(test|live)_[0-9A-Za-z]{24}$/;
// Compared against when the key is unknown, so an unknown key costs what a wrong secret costs.
const DUMMY_HASH = sha256Hex('servicepay-dummy-secret');

const unauthorized = () => bearerUnauthorized('Send Authorization: Bearer <api_key>:<api_secret> with an active key');

/**
 * docs/api.md#authentication: `Bearer <api_key>:<api_secret>`, split on the first colon. A missing
 * header, another scheme, an unknown key, a wrong secret, a revoked key and an inactive merchant
 * all get the same 401. With `cache`, a key that authenticated lately is not read again
 * (lib/auth/key-cache.ts); its secret is still checked against the hash on every request.
 */
export async function authenticateMerchant(db: Db, authorization: string | null, cache?: KeyCache): Promise<AuthenticatedMerchant> {
  const credentials = bearerCredentials(authorization);
  if (!credentials) throw unauthorized();
  const { apiKey, secret } = credentials;
  const wellFormed = API_KEY.test(apiKey);
  const cached = wellFormed ? cache?.get(apiKey) : undefined;
  const ticket = cache?.ticket() ?? 0;
  const known = cached ?? (wellFormed ? usable(await findApiKey(db, apiKey)) : undefined);
  const matches = secretMatchesHash(secret, known?.secretHash ?? DUMMY_HASH);
  if (!known || !matches || secret.length === 0) throw unauthorized();
  if (!cached) cache?.remember(apiKey, known, ticket);
  recordUse(db, apiKey);
  return { merchantId: known.merchantId, apiKey, pinnedVersion: known.apiVersion };
}

/** `Bearer <api_key>:<api_secret>` split on the first colon; undefined for any other header or none. */
function bearerCredentials(authorization: string | null): { apiKey: string; secret: string } | undefined {
  const credentials = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
  const colon = credentials?.indexOf(':') ?? -1;
  return credentials && colon >= 0 ? { apiKey: credentials.slice(0, colon), secret: credentials.slice(colon + 1) } : undefined;
}

/** The 401 of a request whose header holds no credentials at all, decided without any other work. */
export function missingCredentials(req: Pick<Request, 'headers'>): ApiError | undefined {
  return bearerCredentials(req.headers.get('authorization')) ? undefined : unauthorized();
}

/** A key that may authenticate (not revoked, its merchant active): what is checked and kept of it. */
function usable(row: Awaited<ReturnType<typeof findApiKey>>): CachedKey | undefined {
  return row && !row.revokedAt && row.merchantStatus === 'ACTIVE' ? { merchantId: row.merchantId, secretHash: row.secretHash, apiVersion: row.apiVersion } : undefined;
}

// Last use is kept to the minute, and never written on the request path: each process notes the
// keys it authenticates and writes them in one statement a few seconds later. A busy key costs one
// write a minute; many keys share one. `next start` writes them at once when SIGTERM or SIGINT
// stops it, and waits for them (waitBeforeExit); a process killed outright loses at most its last
// few seconds of them (last use is shown to merchants, nothing decides on it).
const RECORD_EVERY_MS = 60_000;
const FLUSH_AFTER_MS = 5_000;
const FLUSH_BATCH = 500;

/** When this process last noted each key, so a key is noted at most once a minute. */
const lastNoted = new Map<string, number>();
/** Keys noted and not yet written, per database (tests use several). */
const pending = new Map<Db, Set<string>>();
let flushTimer: NodeJS.Timeout | undefined;
/** Settles what Next.js waits for (waitBeforeExit) once the notes pending now are written. */
let settleWritten: (() => void) | undefined;

function recordUse(db: Db, apiKey: string): void {
  const now = Date.now();
  if (now - (lastNoted.get(apiKey) ?? 0) < RECORD_EVERY_MS) return;
  if (lastNoted.size >= 100_000) lastNoted.clear();
  lastNoted.set(apiKey, now);
  const keys = pending.get(db) ?? new Set();
  pending.set(db, keys.add(apiKey));
  if (!flushTimer) {
    flushTimer = setTimeout(() => void flushKeyUse(), FLUSH_AFTER_MS);
    flushTimer.unref();
    waitBeforeExit(new Promise<void>((resolve) => (settleWritten = resolve)));
  }
}

let flushesOnSignal = false;

/**
 * Inside a request of `next start`, Next.js awaits `after()` work when SIGTERM or SIGINT stops
 * it, and the notes are written at once then rather than when their timer would. Elsewhere
 * (tests, scripts, the bench's bare server) there is no request to tie the promise to, `after`
 * throws, and the timer alone writes the notes: no signal handler is added to a process that did
 * not ask for one.
 */
function waitBeforeExit(promise: Promise<void>): void {
  try {
    after(promise);
  } catch {
    return;
  }
  if (flushesOnSignal) return;
  flushesOnSignal = true;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void flushKeyUse());
}

/** Writes every noted use now (the timer's job; tests call it too). */
export async function flushKeyUse(): Promise<void> {
  clearTimeout(flushTimer);
  flushTimer = undefined;
  const settle = settleWritten;
  settleWritten = undefined;
  const batches = [...pending];
  pending.clear();
  for (const [db, keys] of batches) {
    const all = [...keys];
    for (let i = 0; i < all.length; i += FLUSH_BATCH) {
      await touchApiKeys(db, all.slice(i, i + FLUSH_BATCH)).catch((error) => log.warn('could not record API key use', errorFields(error)));
    }
  }
  settle?.();
}
