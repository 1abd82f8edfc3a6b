import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../client';
import { newestPage } from './newest-page';
import { invoices, merchants } from '../schema';

// Electronic invoices' rows (lib/invoices): written in the settlement's transaction, claimed by one
// issuer at a time (a lease), finished only by the claim that holds them.

export type InvoiceRow = typeof invoices.$inferSelect;
export type NewInvoice = typeof invoices.$inferInsert;

/** The charge's document of `kind`, written once: a second settler's insert does nothing. */
export async function insertInvoice(tx: Db, values: NewInvoice): Promise<InvoiceRow | undefined> {
  const [row] = await tx.insert(invoices).values(values).onConflictDoNothing({ target: [invoices.transactionId, invoices.kind] }).returning();
  return row;
}

export async function getInvoiceOfTransaction(tx: Db, transactionId: string, kind: InvoiceRow['kind'], { lock = false } = {}): Promise<InvoiceRow | undefined> {
  const query = tx.select().from(invoices).where(and(eq(invoices.transactionId, transactionId), eq(invoices.kind, kind)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function getInvoice(db: Db, id: string): Promise<InvoiceRow | undefined> {
  const [row] = await db.select().from(invoices).where(eq(invoices.id, id));
  return row;
}

export async function getInvoiceForMerchant(db: Db, { merchantId, invoiceId }: { merchantId: string; invoiceId: string }): Promise<InvoiceRow | undefined> {
  const [row] = await db.select().from(invoices).where(and(eq(invoices.id, invoiceId), eq(invoices.merchantId, merchantId)));
  return row;
}

/** A merchant's documents, newest first, before `before` (an id), optionally of one plan or in one state. */
export async function listInvoices(
  db: Db,
  { merchantId, planId, status, before, limit }: { merchantId: string; planId?: string; status?: InvoiceRow['status']; before?: string; limit: number },
): Promise<InvoiceRow[]> {
  return newestPage(db, invoices, { merchantId, before, limit }, planId ? eq(invoices.planId, planId) : undefined, status ? eq(invoices.status, status) : undefined);
}

/** A plan's documents, oldest first (the customer's manage page). */
export async function listPlanInvoices(db: Db, planId: string): Promise<InvoiceRow[]> {
  return db.select().from(invoices).where(eq(invoices.planId, planId)).orderBy(asc(invoices.id));
}

/** The documents of a charge (its receipt, its receipt e-mail). */
export async function invoicesOfTransaction(db: Db, transactionId: string): Promise<InvoiceRow[]> {
  return db.select().from(invoices).where(eq(invoices.transactionId, transactionId));
}

/**
 * Takes up to `limit` PENDING documents that are due and not held by a live claim (of `ids` only,
 * when given) until `until`, counting the attempt. Rows another issuer is taking are skipped, not
 * waited for; of two issuers racing for one row, one gets it.
 */
export async function claimDueInvoices(db: Db, { claim, now, until, limit, ids }: { claim: string; now: Date; until: Date; limit: number; ids?: string[] }): Promise<InvoiceRow[]> {
  const due = db
    .select({ id: invoices.id })
    .from(invoices)
    .where(
      and(
        eq(invoices.status, 'PENDING'),
        lte(invoices.nextAttemptAt, now),
        or(isNull(invoices.claimedUntil), lt(invoices.claimedUntil, now)),
        ids ? inArray(invoices.id, ids) : undefined,
      ),
    )
    .orderBy(asc(invoices.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(invoices)
    .set({ claim, claimedUntil: until, attempts: sql`${invoices.attempts} + 1`, updatedAt: sql`now()` })
    .where(inArray(invoices.id, due))
    .returning();
}

/** Writes what an attempt learnt and lets the claim go; nothing when the claim was lost (its lease lapsed and another took it). */
export async function finishInvoice(tx: Db, { id, claim }: { id: string; claim: string }, values: Partial<NewInvoice>): Promise<InvoiceRow | undefined> {
  const [row] = await tx
    .update(invoices)
    .set({ ...values, claim: null, claimedUntil: null, updatedAt: sql`now()` })
    .where(and(eq(invoices.id, id), eq(invoices.claim, claim), eq(invoices.status, 'PENDING')))
    .returning();
  return row;
}

/** A claimed document's consecutive (Alegra), taken once from the merchant's counter and kept. */
export async function reserveCallerNumber(db: Db, { id, claim, merchantId, kind }: { id: string; claim: string; merchantId: string; kind: InvoiceRow['kind'] }): Promise<number | undefined> {
  return db.transaction(async (tx) => {
    const [held] = await tx
      .select({ callerNumber: invoices.callerNumber })
      .from(invoices)
      .where(and(eq(invoices.id, id), eq(invoices.claim, claim)))
      .for('update');
    if (!held) return undefined;
    if (held.callerNumber !== null) return held.callerNumber;
    const counter = kind === 'INVOICE' ? merchants.einvoiceNextNumber : merchants.einvoiceNextNoteNumber;
    const column = kind === 'INVOICE' ? 'einvoiceNextNumber' : 'einvoiceNextNoteNumber';
    const [taken] = await tx
      .update(merchants)
      .set({ [column]: sql`${counter} + 1` })
      .where(eq(merchants.id, merchantId))
      .returning({ next: counter });
    if (!taken || taken.next === null) return undefined;
    const number = taken.next - 1;
    await tx.update(invoices).set({ callerNumber: number }).where(eq(invoices.id, id));
    return number;
  });
}

/** A void (lib/settlement/void.ts): a PENDING invoice never tried is cancelled; one an issuer may have sent is marked, for its issuer to settle. */
export async function markInvoiceVoided(tx: Db, id: string, now: Date): Promise<InvoiceRow | undefined> {
  const [row] = await tx
    .update(invoices)
    .set({
      voidedAt: now,
      nextAttemptAt: now,
      status: sql`case when ${invoices.attempts} = 0 and ${invoices.claimedUntil} is null then 'CANCELLED' else ${invoices.status} end`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(invoices.id, id), eq(invoices.status, 'PENDING')))
    .returning();
  return row;
}

/** REJECTED or FAILED → PENDING, due now, with a fresh retry window (the merchant fixed the cause). */
export async function reopenInvoice(db: Db, { id, merchantId, now, retryUntil }: { id: string; merchantId: string; now: Date; retryUntil: Date }): Promise<InvoiceRow | undefined> {
  const [row] = await db
    .update(invoices)
    .set({ status: 'PENDING', nextAttemptAt: now, retryUntil, errors: [], lastError: null, updatedAt: sql`now()` })
    .where(and(eq(invoices.id, id), eq(invoices.merchantId, merchantId), inArray(invoices.status, ['REJECTED', 'FAILED']), isNull(invoices.voidedAt)))
    .returning();
  return row;
}

/** Whether a merchant invoices, and at which IVA rate (read in the settlement's transaction). */
export async function getEInvoicingOf(db: Db, merchantId: string): Promise<{ provider: InvoiceRow['provider'] | null; iva: InvoiceRow['ivaRate'] | null } | undefined> {
  const [row] = await db.select({ provider: merchants.einvoiceProvider, iva: merchants.einvoiceIva }).from(merchants).where(eq(merchants.id, merchantId));
  return row;
}

/** A REJECTED or FAILED invoice whose charge was voided: DIAN never validated it, nothing to annul. */
export async function cancelUnvalidatedInvoice(tx: Db, id: string, now: Date): Promise<void> {
  await tx
    .update(invoices)
    .set({ status: 'CANCELLED', voidedAt: now, updatedAt: sql`now()` })
    .where(and(eq(invoices.id, id), inArray(invoices.status, ['REJECTED', 'FAILED'])));
}
