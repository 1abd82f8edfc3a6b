import type { Db } from '@/db/client';
import type { ApiVersion } from '@/lib/api-versions';
import { findApiKey } from '@/db/queries/api-keys';
import { type ApiError, bearerUnauthorized } from './errors';
import type { CachedKey, KeyCache } from '@/lib/auth/key-cache';
import { recordUse } from '@/lib/auth/key-use';
import { deploymentKeyMode, secretMatchesHash, sha256Hex } from '@/lib/auth/secrets';

export interface AuthenticatedMerchant {
  merchantId: string;
  apiKey: string;
  /** The version a request naming none is answered in (docs/api.md#versioning). */
  pinnedVersion: ApiVersion;
  /** A key restricted to reading: any method but GET and HEAD is a 403 (lib/api/with-merchant.ts). */
  readOnly: boolean;
}

const API_KEY = /^pk_(test|live)_[0-9A-Za-z]{24}$/;
// Compared against when the key is unknown, so an unknown key costs what a wrong secret costs.
const DUMMY_HASH = sha256Hex('servicepay-dummy-secret');

const unauthorized = () => bearerUnauthorized('Send Authorization: Bearer <api_key>:<api_secret> with an active key');
const otherDeployment = (mode: 'live' | 'test') =>
  bearerUnauthorized(
    mode === 'live'
      ? 'A test key (pk_test_) was sent to a live deployment: use a pk_live_ key'
      : 'A live key (pk_live_) was sent to a sandbox deployment: use a pk_test_ key',
  );

/**
 * docs/api.md#authentication: `Bearer <api_key>:<api_secret>`; every failure is the same 401. With
 * `cache` the key is not read again, but its secret is checked against the hash every time.
 */
export async function authenticateMerchant(db: Db, authorization: string | null, cache?: KeyCache): Promise<AuthenticatedMerchant> {
  const credentials = bearerCredentials(authorization);
  if (!credentials) throw unauthorized();
  const { apiKey, secret } = credentials;
  const mode = deploymentKeyMode();
  if (apiKey.startsWith(mode === 'live' ? 'pk_test_' : 'pk_live_')) throw otherDeployment(mode);
  const wellFormed = API_KEY.test(apiKey);
  const cached = wellFormed ? cache?.get(apiKey) : undefined;
  const ticket = cache?.ticket() ?? 0;
  const known = cached ?? (wellFormed ? usable(await findApiKey(db, apiKey)) : undefined);
  const matches = secretMatchesHash(secret, known?.secretHash ?? DUMMY_HASH);
  if (!known || !matches || secret.length === 0) throw unauthorized();
  if (!cached) cache?.remember(apiKey, known, ticket);
  recordUse(db, apiKey);
  return { merchantId: known.merchantId, apiKey, pinnedVersion: known.apiVersion, readOnly: known.readOnly };
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
  return row && !row.revokedAt && row.merchantStatus === 'ACTIVE' ? { merchantId: row.merchantId, secretHash: row.secretHash, apiVersion: row.apiVersion, readOnly: row.readOnly } : undefined;
}
