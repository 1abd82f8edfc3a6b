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
  /** For a request naming none (docs/api.md#versioning). */
  pinnedVersion: ApiVersion;
  /** Any method but GET and HEAD is a 403. */
  readOnly: boolean;
}

const API_KEY = /^pk_(test|live)_[0-9A-Za-z]{24}$/;
// Checked when the key is unknown, so it costs what a wrong secret costs.
const DUMMY_HASH = sha256Hex('servicepay-dummy-secret');

const unauthorized = () => bearerUnauthorized('Send Authorization: Bearer <api_key>:<api_secret> with an active key');
const otherDeployment = (mode: 'live' | 'test') =>
  bearerUnauthorized(
    mode === 'live'
      ? 'A test key (pk_test_) was sent to a live deployment: use a pk_live_ key'
      : 'A live key (pk_live_) was sent to a sandbox deployment: use a pk_test_ key',
  );

/** `Bearer <api_key>:<api_secret>`; every failure the same 401. A cached key's secret is still checked every time. */
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

/** Split on the first colon; undefined for any other header. */
function bearerCredentials(authorization: string | null): { apiKey: string; secret: string } | undefined {
  const credentials = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
  const colon = credentials?.indexOf(':') ?? -1;
  return credentials && colon >= 0 ? { apiKey: credentials.slice(0, colon), secret: credentials.slice(colon + 1) } : undefined;
}

/** Decided without any other work. */
export function missingCredentials(req: Pick<Request, 'headers'>): ApiError | undefined {
  return bearerCredentials(req.headers.get('authorization')) ? undefined : unauthorized();
}

/** Not revoked, its merchant active. */
function usable(row: Awaited<ReturnType<typeof findApiKey>>): CachedKey | undefined {
  return row && !row.revokedAt && row.merchantStatus === 'ACTIVE' ? { merchantId: row.merchantId, secretHash: row.secretHash, apiVersion: row.apiVersion, readOnly: row.readOnly } : undefined;
}
