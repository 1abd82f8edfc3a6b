import { createHash } from 'node:crypto';
import type { Db } from '@/db/client';
import { claimIdempotencyKey, getIdempotencyRecord, saveIdempotentResponse } from '@/db/queries/idempotency';
import { ApiError } from '@/lib/api/errors';
import { inTransaction } from '@/lib/unit-of-work';

/** JSON with object keys sorted, so the same body hashes the same whatever its key order or spacing. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

interface StoredResponse {
  status: number;
  body: string;
  replayed: boolean;
}

/** With an Idempotency-Key: the first reply again for 24 h, 409 for another body; claim, work and reply in one transaction. */
export async function runIdempotent(
  db: Db,
  scope: { merchantId: string; key: string; body: unknown },
  work: (tx: Db) => Promise<{ status: number; body: unknown }>,
): Promise<StoredResponse> {
  const requestHash = createHash('sha256').update(canonical(scope.body)).digest('hex');
  return inTransaction(db, async (tx) => {
    const ids = { merchantId: scope.merchantId, key: scope.key };
    if (!(await claimIdempotencyKey(tx, { ...ids, requestHash }))) {
      const record = await getIdempotencyRecord(tx, ids);
      if (!record) throw new Error('idempotency record vanished while claimed');
      if (record.requestHash !== requestHash) {
        throw new ApiError('idempotency_key_reused', 'This Idempotency-Key was already used with a different body');
      }
      return { status: record.responseStatus, body: record.responseBody, replayed: true };
    }
    const result = await work(tx);
    const body = JSON.stringify(result.body);
    await saveIdempotentResponse(tx, { ...ids, status: result.status, body });
    return { status: result.status, body, replayed: false };
  });
}
