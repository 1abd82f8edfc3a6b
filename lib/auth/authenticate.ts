import type { Db } from '@/db/client';
import { findApiKey, touchApiKey } from '@/db/queries/api-keys';
import { ApiError } from '@/lib/api/errors';
import { errorFields, log } from '@/lib/log';
import { secretMatchesHash, sha256Hex } from './secrets';

export interface AuthenticatedMerchant {
  merchantId: string;
  apiKey: string;
}

const API_KEY = /^pk_(test|live)_[0-9A-Za-z]{24}$/;
// Compared against when the key is unknown, so an unknown key costs what a wrong secret costs.
const DUMMY_HASH = sha256Hex('servicepay-dummy-secret');

const unauthorized = () =>
  new ApiError('unauthorized', 'Send Authorization: Bearer <api_key>:<api_secret> with an active key');

/**
 * docs/api.md#authentication / docs/api.md#authentication: `Bearer <api_key>:<api_secret>`, split on the first colon. A missing
 * header, another scheme, an unknown key, a wrong secret, a revoked key and an inactive merchant
 * all get the same 401.
 */
export async function authenticateMerchant(db: Db, authorization: string | null): Promise<AuthenticatedMerchant> {
  const credentials = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
  const colon = credentials?.indexOf(':') ?? -1;
  if (!credentials || colon < 0) throw unauthorized();
  const apiKey = credentials.slice(0, colon);
  const secret = credentials.slice(colon + 1);
  const row = API_KEY.test(apiKey) ? await findApiKey(db, apiKey) : undefined;
  const matches = secretMatchesHash(secret, row?.secretHash ?? DUMMY_HASH);
  if (!row || !matches || secret.length === 0 || row.revokedAt || row.merchantStatus !== 'ACTIVE') throw unauthorized();
  recordUse(db, apiKey);
  return { merchantId: row.merchantId, apiKey };
}

// When this process last recorded each key's use: the database keeps last use to the minute,
// so a busy key costs one write a minute, not one a request.
const lastRecorded = new Map<string, number>();
const RECORD_EVERY_MS = 60_000;

function recordUse(db: Db, apiKey: string): void {
  const now = Date.now();
  if (now - (lastRecorded.get(apiKey) ?? 0) < RECORD_EVERY_MS) return;
  if (lastRecorded.size >= 10_000) lastRecorded.clear();
  lastRecorded.set(apiKey, now);
  touchApiKey(db, apiKey).catch((error) => log.warn('could not record API key use', errorFields(error)));
}
