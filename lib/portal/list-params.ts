import type { PlanFilter, TransactionFilter } from '@/db/queries/activity';
import { PLAN_STATUSES, type PlanStatus, TRANSACTION_STATUSES, type TransactionStatus } from '@/db/schema';
import { type IdPrefix, isId } from '@/lib/ids';
import { paramOf, type SearchParams as PageParams } from '@/lib/search-params';

// The query string of the portal's lists (?q=&status=&before=), read alike by the pages and by
// their CSV exports, so an export holds exactly what the filters show.

export type SearchParams = PageParams | URLSearchParams;

function one(params: SearchParams, name: string): string | undefined {
  return paramOf(params, name)?.trim().slice(0, 200) || undefined;
}

/** A list's filters: the search, a status among `statuses`, and a page cursor: an id with `idPrefix`. */
function filterOf<Status extends string>(params: SearchParams, statuses: readonly Status[], idPrefix: IdPrefix) {
  const status = one(params, 'status');
  const before = one(params, 'before');
  return {
    search: one(params, 'q'),
    status: statuses.includes(status as Status) ? (status as Status) : undefined,
    before: before && isId(idPrefix, before) ? before : undefined,
  };
}

export function planFilterOf(params: SearchParams): PlanFilter {
  return filterOf<PlanStatus>(params, PLAN_STATUSES, 'sub');
}

export function transactionFilterOf(params: SearchParams): TransactionFilter {
  return filterOf<TransactionStatus>(params, TRANSACTION_STATUSES, 'txn');
}

/** The same filters as a query string, with `extra` (a page cursor) and without an old cursor. */
export function filterQuery(filter: PlanFilter | TransactionFilter, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ ...(filter.search && { q: filter.search }), ...(filter.status && { status: filter.status }), ...extra });
  const query = params.toString();
  return query ? `?${query}` : '';
}
