import type { Db } from '@/db/client';
import { type OwnedKind, rowExists } from '@/db/queries/ownership';
import { ApiError } from './errors';
import { isId } from '@/lib/ids';

// The one "403 or 404" rule (docs/api.md#authentication): a malformed or unknown id is 404;
// another merchant's row is 403, and nothing of it is read.

const NOUNS: Record<OwnedKind, string> = { sub: 'subscription plan', txn: 'transaction', evt: 'webhook event', cpn: 'coupon', inv: 'invoice' };

/** A row through a merchant-scoped `load`; on a miss, 403 if the id exists (another merchant's), else 404. */
export async function findOwned<T>(db: Db, kind: OwnedKind, id: string, load: () => Promise<T | undefined>): Promise<T> {
  const notFound = () => new ApiError('not_found', `No ${NOUNS[kind]} with this id`);
  if (!isId(kind, id)) throw notFound();
  const found = await load();
  if (found !== undefined) return found;
  if (await rowExists(db, kind, id)) throw new ApiError('forbidden', `This ${NOUNS[kind]} belongs to another account`);
  throw notFound();
}
