import type { PlanFilter, TransactionFilter } from '@/db/queries/activity';
import { PLAN_STATUSES, type PlanStatus, TRANSACTION_STATUSES, type TransactionStatus } from '@/db/schema';
import { isId } from '@/lib/ids';
import { paramOf, type SearchParams as PageParams } from '@/lib/search-params';

// The query string of the portal's lists (?q=&status=&before=), read alike by the pages and by
// their CSV exports, so an export holds exactly what the filters show.

export type SearchParams = PageParams | URLSearchParams;

function one(params: SearchParams, name: string): string | undefined {
  return paramOf(params, name)?.trim().slice(0, 200) || undefined;
}

export function planFilterOf(params: SearchParams): PlanFilter {
  const status = one(params, 'status');
  const before = one(params, 'before');
  return {
    search: one(params, 'q'),
    status: PLAN_STATUSES.includes(status as PlanStatus) ? (status as PlanStatus) : undefined,
    before: before && isId('sub', before) ? before : undefined,
  };
}

export function transactionFilterOf(params: SearchParams): TransactionFilter {
  const status = one(params, 'status');
  const before = one(params, 'before');
  return {
    search: one(params, 'q'),
    status: TRANSACTION_STATUSES.includes(status as TransactionStatus) ? (status as TransactionStatus) : undefined,
    before: before && isId('txn', before) ? before : undefined,
  };
}

/** The same filters as a query string, with `extra` (a page cursor) and without an old cursor. */
export function filterQuery(filter: PlanFilter | TransactionFilter, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ ...(filter.search && { q: filter.search }), ...(filter.status && { status: filter.status }), ...extra });
  const query = params.toString();
  return query ? `?${query}` : '';
}
