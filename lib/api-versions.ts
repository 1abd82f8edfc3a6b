// API versions (docs/api.md#versioning): the `ServicePay-Version` header, else the merchant's
// pinned version. 2026-11-20 is the contract as first published; each later one adds what would
// surprise an older receiver. Imports nothing of the app: db/schema.ts reads it too.
import { z } from 'zod';

/** Every version, oldest first. Adding one: append it here and bump the column default (a migration). */
export const API_VERSIONS = ['2026-11-20', '2026-11-26', '2026-11-28'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

export const LATEST_API_VERSION: ApiVersion = API_VERSIONS[API_VERSIONS.length - 1]!;

export const VERSION_HEADER = 'ServicePay-Version';

export function isApiVersion(value: unknown): value is ApiVersion {
  return typeof value === 'string' && (API_VERSIONS as readonly string[]).includes(value);
}

/** What `version` sees of `latest`: the shape in `before` keyed by the oldest version not older than it, else `latest`. */
export function forVersion<T>(latest: T, before: Partial<Record<ApiVersion, T>> | undefined, version: ApiVersion): T {
  if (!before) return latest;
  const key = API_VERSIONS.find((v) => v >= version && before[v] !== undefined);
  return key ? before[key]! : latest;
}

/** Plan states added after 2026-11-20, and the state that version shows instead. */
const NEWER_PLAN_STATES: Readonly<Record<string, string>> = { TRIALING: 'PENDING_ACTIVATION' };

/** A plan status as 2026-11-20 shows it: its five states (replies and lifecycle bodies). */
export const planStatus20261120 = z.preprocess(
  (status) => (typeof status === 'string' && Object.hasOwn(NEWER_PLAN_STATES, status) ? NEWER_PLAN_STATES[status] : status),
  z.enum(['PENDING_ACTIVATION', 'ACTIVE', 'PAUSED', 'CANCELLED', 'COMPLETED']),
);
