import { type Db, getDb } from '@/db/client';
import { currentUser } from './accounts';
import { csvResponse } from './csv';
import type { SearchParams } from './list-params';

/** A portal CSV export: the signed-in merchant's rows with the list's filters (no cursor, up to CSV_EXPORT_LIMIT); 401 without a session. */
export function csvExport<Filter>(
  name: string,
  filterOf: (params: SearchParams) => Filter,
  csvOf: (db: Db, merchantId: string, filter: Filter & { before: undefined }) => Promise<string>,
): (req: Request) => Promise<Response> {
  return async (req) => {
    const user = await currentUser(req.headers);
    if (!user) return new Response('Sign in first', { status: 401 });
    const filter = { ...filterOf(new URL(req.url).searchParams), before: undefined };
    return csvResponse(name, await csvOf(await getDb(), user.merchantId, filter));
  };
}
