import { and, desc, eq, ilike, inArray, lt, or, type SQL } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { auditLog } from '@/db/schema';
import { deleteInBatches } from './batched-delete';

// The audit log's rows (lib/audit: what is recorded and how secrets are masked).

export type AuditRow = typeof auditLog.$inferSelect;
export type AuditInsert = typeof auditLog.$inferInsert;

export async function insertAuditEntry(tx: Db, entry: AuditInsert): Promise<void> {
  await tx.insert(auditLog).values(entry);
}

export interface AuditFilter {
  /** Matches the actor, the action or the target (case-insensitive, part of the text). */
  search?: string;
  /** An action's area: the part before the dot (`webhook`, `api_key`, …). */
  area?: string;
  /** A page cursor: entries older than this id. */
  before?: number;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A page of the merchant's entries, newest first. */
export async function listAuditEntries(db: Db, merchantId: string, filter: AuditFilter, pageSize: number) {
  const conditions: SQL[] = [eq(auditLog.merchantId, merchantId)];
  if (filter.search) {
    const like = `%${escapeLike(filter.search)}%`;
    conditions.push(or(ilike(auditLog.actorLabel, like), ilike(auditLog.action, like), ilike(auditLog.target, like))!);
  }
  if (filter.area) conditions.push(ilike(auditLog.action, `${escapeLike(filter.area)}.%`));
  if (filter.before) conditions.push(lt(auditLog.id, filter.before));
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(...conditions))
    .orderBy(desc(auditLog.id))
    .limit(pageSize + 1);
  return { entries: rows.slice(0, pageSize), hasMore: rows.length > pageSize };
}

/** Entries created before `before`, in batches: the retention delete, the one the table's trigger lets through. */
export function deleteAuditEntriesCreatedBefore(db: Db, before: Date): Promise<number> {
  return deleteInBatches(
    db,
    async (tx, limit) => (await tx.select({ id: auditLog.id }).from(auditLog).where(lt(auditLog.createdAt, before)).limit(limit)).map((r) => r.id),
    async (tx, ids) => {
      await tx.delete(auditLog).where(inArray(auditLog.id, ids));
    },
  );
}
