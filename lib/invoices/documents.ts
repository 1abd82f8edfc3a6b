import type { Db } from '@/db/client';
import { cancelUnvalidatedInvoice, getInvoiceOfTransaction, insertInvoice, type InvoiceRow, markInvoiceVoided } from '@/db/queries/invoices';
import type { PlanRow } from '@/db/queries/plans';
import type { TransactionRow } from '@/db/queries/transactions';
import { intervalOf } from '@/lib/calendar/interval';
import { bogotaDate, invoicePeriod } from '@/lib/einvoicing/dates';
import { finalConsumer, type Buyer } from '@/lib/einvoicing/draft';
import { type LineInput, priceLine, totalsOf } from '@/lib/einvoicing/money';
import { createId } from '@/lib/ids';
import type { Outbox } from '@/lib/outbox';
import { merchantFactsIn } from '@/lib/merchant-facts';
import { chargeLines } from '@/lib/receipts/lines';
import { planBuyerOf } from './buyer';
import { ivaOfColumn } from './settings';

// Writing electronic invoices in the unit of work of the change that causes them
// (docs/einvoicing.md#issuing): an APPROVED charge of a merchant with e-invoicing on gets its
// PENDING invoice in the settlement's own transaction, and a void its credit note (or the
// pending invoice's cancellation). Recorders import them through record.ts, which loads the
// hand-off that issues them after commit; nothing here calls a provider.

export const RETRY_WINDOW_MS = 72 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Due at once even when a test clock's `now` is ahead: issuers run on the real clock. */
const dueAt = (now: Date) => new Date(Math.min(now.getTime(), Date.now()));

/** What every new document starts with: its id, sent at once, retried for RETRY_WINDOW_MS. */
const newDocument = (now: Date) => ({ id: createId('inv', now.getTime()), retryUntil: new Date(now.getTime() + RETRY_WINDOW_MS), nextAttemptAt: dueAt(now), createdAt: now });

/** Who the plan's invoices are made out to: its tax id and legal name, or the final consumer. */
export function buyerOf(plan: PlanRow): Buyer {
  const named = planBuyerOf(plan);
  if (!named) return finalConsumer(plan.customerEmail);
  return { taxId: named.taxId, legalName: named.legalName || plan.customerEmail, email: plan.customerEmail };
}

/** The days a charge pays for: its period by the plan's interval; a proration, the rest of the current one. */
function periodOf(plan: PlanRow, txn: TransactionRow) {
  const start = txn.periodStart ?? txn.chargeDate;
  if (txn.kind === 'PRORATION' && plan.nextChargeDate && plan.nextChargeDate.getTime() - DAY_MS >= txn.chargeDate.getTime()) {
    return { start: bogotaDate(txn.chargeDate), end: bogotaDate(new Date(plan.nextChargeDate.getTime() - DAY_MS)) };
  }
  return invoicePeriod(start, intervalOf(plan), plan.billingAnchorDay);
}

/** The charge's lines as the receipt has them (lib/receipts/lines.ts): seats, setup fee; the coupon a discount of the seats' line. */
function invoiceLines(plan: PlanRow, txn: TransactionRow, iva: LineInput['iva']): LineInput[] {
  return chargeLines(txn).flatMap((line): LineInput[] => {
    if (line.kind === 'fixed') return [{ description: plan.description, quantity: line.quantity, unitPrice: line.unitAmount, discount: txn.discount, iva }];
    if (line.kind === 'setup_fee') return [{ description: 'Cargo de inscripción', quantity: 1, unitPrice: line.amount, discount: 0, iva }];
    if (line.kind === 'usage' && line.amount > 0) return [{ description: `Uso del periodo (${line.quantity} unidades)`, quantity: 1, unitPrice: line.amount, discount: 0, iva }];
    return [];
  });
}

/**
 * An APPROVED charge's PENDING invoice, when its merchant invoices; true when the charge has one.
 * A second settler's insert does nothing: one invoice per charge.
 */
export async function noteInvoice(tx: Db, outbox: Outbox, plan: PlanRow, txn: TransactionRow, now: Date): Promise<boolean> {
  if (txn.status !== 'APPROVED') return false;
  const merchant = await merchantFactsIn(tx, outbox, plan.merchantId);
  if (!merchant?.einvoiceProvider || !merchant.einvoiceIva) return false;
  const rate = plan.iva ?? merchant.einvoiceIva;
  const lines = invoiceLines(plan, txn, ivaOfColumn(rate));
  const totals = totalsOf(lines.map(priceLine));
  const period = periodOf(plan, txn);
  const inserted = await insertInvoice(tx, {
    ...newDocument(now),
    merchantId: plan.merchantId,
    planId: plan.id,
    transactionId: txn.id,
    kind: 'INVOICE',
    provider: merchant.einvoiceProvider,
    total: totals.payable,
    net: totals.lineExtension,
    ivaAmount: totals.iva,
    ivaRate: rate,
    lines,
    buyer: buyerOf(plan) as unknown as Record<string, unknown>,
    paymentMethod: txn.paymentMethodType,
    periodStart: period.start,
    periodEnd: period.end,
  });
  if (inserted) outbox.addInvoice({ invoiceId: inserted.id, merchantId: inserted.merchantId });
  return true;
}

/** The credit note annulling an ISSUED invoice (concept 2), written once. */
export async function insertCreditNote(tx: Db, outbox: Outbox, invoice: InvoiceRow, now: Date): Promise<void> {
  // The note repeats what the invoice said, for the same charge and issuer.
  const { merchantId, planId, transactionId, provider, total, net, ivaAmount, ivaRate, lines, buyer, paymentMethod, periodStart, periodEnd } = invoice;
  const same = { merchantId, planId, transactionId, provider, total, net, ivaAmount, ivaRate, lines, buyer, paymentMethod, periodStart, periodEnd };
  const note = await insertInvoice(tx, { ...newDocument(now), ...same, kind: 'CREDIT_NOTE', invoiceId: invoice.id });
  if (note) outbox.addInvoice({ invoiceId: note.id, merchantId: note.merchantId });
}

/**
 * A charge was voided (in its void's unit of work): an ISSUED invoice gets its credit note; a
 * PENDING one never sent is cancelled, and one an issuer may have sent is marked for that issuer
 * to settle (issued after all: a credit note; not: cancelled); a REJECTED or FAILED one, which DIAN
 * never validated, is cancelled.
 */
export async function noteVoidedCharge(tx: Db, outbox: Outbox, txn: Pick<TransactionRow, 'id'>, now: Date): Promise<void> {
  const invoice = await getInvoiceOfTransaction(tx, txn.id, 'INVOICE', { lock: true });
  if (!invoice) return;
  if (invoice.status === 'ISSUED') return insertCreditNote(tx, outbox, invoice, now);
  if (invoice.status === 'PENDING') {
    const marked = await markInvoiceVoided(tx, invoice.id, now);
    if (marked?.status === 'PENDING') outbox.addInvoice({ invoiceId: marked.id, merchantId: marked.merchantId, reason: 'voided' });
    return;
  }
  if (invoice.status === 'REJECTED' || invoice.status === 'FAILED') await cancelUnvalidatedInvoice(tx, invoice.id, now);
}
