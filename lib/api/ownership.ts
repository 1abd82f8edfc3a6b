import type { Db } from '@/db/client';
import { type OwnedKind, rowExists } from '@/db/queries/ownership';
import { ApiError } from './errors';
import { isId } from '@/lib/ids';

// The one "403 or 404" rule: malformed or unknown is 404; another merchant's row is 403, nothing of it read.

const NOUNS: Record<OwnedKind, string> = { sub: 'subscription plan', txn: 'transaction', evt: 'webhook event', cpn: 'coupon', inv: 'invoice' };

export async function findOwned<T>(db: Db, kind: OwnedKind, id: string, load: () => Promise<T | undefined>): Promise<T> {
  const notFound = () => new ApiError('not_found', `No ${NOUNS[kind]} with this id`);
  if (!isId(kind, id)) throw notFound();
  const found = await load();
  if (found !== undefined) return found;
  if (await rowExists(db, kind, id)) throw new ApiError('forbidden', `This ${NOUNS[kind]} belongs to another account`);
  throw notFound();
}
