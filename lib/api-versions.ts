// API versions (docs/api.md#versioning). A request names one with `ServicePay-Version: YYYY-MM-DD`;
// without it, the merchant's pinned version applies (the newest when the merchant was created,
// changeable in the portal). 2026-11-20 is the contract as first published, exactly; each later
// version adds what would surprise a receiver written for an older one (new reply fields, new
// plan states). Shapes are chosen where requests are parsed and replies and webhook bodies built.
// Nothing here imports the app: db/schema.ts and lib/webhooks read it too.
import { z } from 'zod';

/** Every version, oldest first. Adding one: append it here and bump the column default (a migration). */
export const API_VERSIONS = ['2026-11-20', '2026-11-26', '2026-11-28'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

export const LATEST_API_VERSION: ApiVersion = API_VERSIONS[API_VERSIONS.length - 1]!;

export const VERSION_HEADER = 'ServicePay-Version';

export function isApiVersion(value: unknown): value is ApiVersion {
  return typeof value === 'string' && (API_VERSIONS as readonly string[]).includes(value);
}

/**
 * What `version` sees of something declared as `latest` with older shapes in `before`: a shape
 * keyed by version V is what V and every version before it see (the shape changed after V). The
 * oldest such V not older than `version` wins; none, and it is `latest`.
 */
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
