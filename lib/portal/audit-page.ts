import type { Db } from '@/db/client';
import { type AuditFilter, type AuditRow, listAuditEntries } from '@/db/queries/audit';
import { paramOf } from '@/lib/search-params';
import type { AuditCopy } from './audit-i18n';
import { CSV_EXPORT_LIMIT, toCsv } from './csv';
import type { SearchParams } from './list-params';

// The audit log's page and its CSV export (docs/portal.md#audit-log): the same filters read from
// the query string by both, so an export holds exactly what the page shows.

export const AUDIT_AREAS = ['merchant', 'api_key', 'member', 'account', 'api', 'operator', 'transaction'] as const;

export function auditFilterOf(params: SearchParams): AuditFilter {
  const search = paramOf(params, 'q')?.trim().slice(0, 200) || undefined;
  const area = paramOf(params, 'area');
  const before = Number(paramOf(params, 'before'));
  return {
    search,
    area: (AUDIT_AREAS as readonly string[]).includes(area ?? '') ? area : undefined,
    before: Number.isSafeInteger(before) && before > 0 ? before : undefined,
  };
}

export function auditQuery(filter: AuditFilter, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({ ...(filter.search && { q: filter.search }), ...(filter.area && { area: filter.area }), ...extra });
  const query = params.toString();
  return query ? `?${query}` : '';
}

/** What an action reads as: its words, or its code for one this build has no words for. */
export function actionText(action: string, t: AuditCopy): string {
  if (action.startsWith('api.')) return t.apiCall;
  return t.actions[action] ?? action;
}

const valueText = (value: unknown, t: AuditCopy): string =>
  value === null || value === undefined || value === '' ? t.removed : typeof value === 'string' ? value : JSON.stringify(value);

/** Each changed field as `field: from → to` (already masked when written), or the value itself. */
export function changeLines(changes: Record<string, unknown>, t: AuditCopy): string[] {
  return Object.entries(changes).map(([field, change]) => {
    if (change && typeof change === 'object' && 'to' in change) {
      const { from, to } = change as { from?: unknown; to: unknown };
      return from === undefined ? `${field}: ${valueText(to, t)}` : `${field}: ${valueText(from, t)} → ${valueText(to, t)}`;
    }
    return `${field}: ${valueText(change, t)}`;
  });
}

export function listAuditPage(db: Db, merchantId: string, filter: AuditFilter, pageSize: number): Promise<{ entries: AuditRow[]; hasMore: boolean }> {
  return listAuditEntries(db, merchantId, filter, pageSize);
}

/** The CSV export: one row per entry, `changes` as its JSON (masked as stored). */
export async function auditCsv(db: Db, merchantId: string, filter: AuditFilter): Promise<string> {
  const { entries } = await listAuditEntries(db, merchantId, { ...filter, before: undefined }, CSV_EXPORT_LIMIT);
  return toCsv(
    ['id', 'createdAt', 'actorType', 'actorId', 'actor', 'ip', 'action', 'target', 'changes'],
    entries.map((e) => [e.id, e.createdAt.toISOString(), e.actorType, e.actorId, e.actorLabel, e.ip, e.action, e.target, JSON.stringify(e.changes)]),
  );
}
