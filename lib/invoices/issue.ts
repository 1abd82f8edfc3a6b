import { randomUUID } from 'node:crypto';
import type { Db } from '@/db/client';
import { cancelUnvalidatedInvoice, claimDueInvoices, finishInvoice, getInvoice, type InvoiceRow, reserveCallerNumber } from '@/db/queries/invoices';
import { getMerchant } from '@/db/queries/merchants';
import { receiptWrittenAt } from '@/db/queries/emails';
import { getPlanForMerchant } from '@/db/queries/plans';
import { getTransactionOfPlan } from '@/db/queries/transactions';
import { createEInvoiceProvider } from '@/lib/einvoicing';
import { bogotaDate } from '@/lib/einvoicing/dates';
import { type Buyer, type CallerNumbering, creditNoteDraft, EInvoiceDraftError, invoiceDraft } from '@/lib/einvoicing/draft';
import type { LineInput } from '@/lib/einvoicing/money';
import { EInvoiceAuthError, type EInvoiceProvider, EInvoiceRetryableError, type IssueResult } from '@/lib/einvoicing/provider';
import { queueCustomerEmail } from '@/lib/email/record';
import { RECEIPT_WAITS_FOR_INVOICE_MS, sendWaitingReceipt } from '@/lib/email/send';
import { env } from '@/lib/env';
import { errorFields, log } from '@/lib/log';
import type { Outbox } from '@/lib/outbox';
import { inTransaction } from '@/lib/unit-of-work';
import { recordLifecycleEvent } from '@/lib/webhooks/events';
import { insertCreditNote } from './documents';
import { noteInvoiceFailed, noteRangeUse } from './notices';
import { invoiceView } from './schemas';
import { openSettings } from './settings';

// Issuing electronic invoices and credit notes (docs/einvoicing.md#issuing) for the hand-off, the
// Inngest function and the sweep. Each document is claimed first (FOR UPDATE SKIP LOCKED, a lease),
// so two issuers never send it at once, and finished only by the claim that holds it; the
// provider's idempotency (Factus' reference, Alegra's reserved number) answers a resend the same document.

/** Long enough for a token request, the document and a lookup, each within its deadline. */
export const invoiceLeaseMs = () => 3 * env().EINVOICE_CALL_TIMEOUT_MS;
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 60 * 60_000;
/** Our internal consecutive's prefix for credit notes when we number them (Alegra). */
export const CREDIT_NOTE_PREFIX = 'NC';

export type Outcome = 'issued' | 'rejected' | 'retrying' | 'failed' | 'cancelled' | 'lost';

export interface IssueOptions {
  now?: Date;
  /** The provider of a merchant's settings (tests hand in one with a short deadline). */
  providerFor?: (settings: ReturnType<typeof openSettings>) => EInvoiceProvider;
}

/** The wait before attempt `attempts + 1`: 30 s doubling to an hour, or the provider's Retry-After when longer. */
export function retryDelayMs(attempts: number, retryAfterMs?: number): number {
  const backoff = Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
  return Math.max(backoff, Math.min(retryAfterMs ?? 0, MAX_RETRY_MS));
}

class LostClaim extends Error {}

/**
 * Claims up to `limit` due PENDING documents (only `ids`, when given) and issues each; returns what
 * became of them. Never throws for a provider's failure: the document waits for its next attempt.
 */
export async function issueDueInvoices(db: Db, { ids, limit = 50, ...options }: IssueOptions & { ids?: string[]; limit?: number } = {}): Promise<Record<Outcome, number>> {
  const now = options.now ?? new Date();
  const claim = randomUUID();
  const rows = await claimDueInvoices(db, { claim, now, until: new Date(now.getTime() + invoiceLeaseMs()), limit, ids });
  const outcomes = await Promise.all(
    rows.map(async (row) => {
      const outcome = await issueClaimed(db, row, claim, { ...options, now });
      // Its receipt waits for the invoice's outcome (docs/einvoicing.md#where-it-shows).
      if (row.kind === 'INVOICE' && outcome !== 'retrying' && outcome !== 'lost') {
        await sendWaitingReceipt(db, row.transactionId).catch((error: unknown) => log.error('sending a receipt after its invoice failed; the sweeper sends it', { invoiceId: row.id, ...errorFields(error) }));
      }
      return outcome;
    }),
  );
  const tally: Record<Outcome, number> = { issued: 0, rejected: 0, retrying: 0, failed: 0, cancelled: 0, lost: 0 };
  for (const outcome of outcomes) tally[outcome] += 1;
  return tally;
}

const referenceOf = (row: InvoiceRow) => (row.kind === 'INVOICE' ? row.transactionId : row.id);

async function issueClaimed(db: Db, row: InvoiceRow, claim: string, options: IssueOptions & { now: Date }): Promise<Outcome> {
  const { now } = options;
  try {
    const merchant = await getMerchant(db, row.merchantId);
    if (!merchant?.einvoiceSecrets) throw new EInvoiceAuthError('e-invoicing is off for this merchant: turn it on again to issue this document');
    const settings = openSettings(merchant.einvoiceSecrets, merchant.id);
    const provider = options.providerFor ? options.providerFor(settings) : createEInvoiceProvider(settings);
    if (row.voidedAt) return await settleVoided(db, row, claim, provider, now);
    const draft = await draftOf(db, row, claim, provider, settings, now);
    const result = draft.kind === 'INVOICE' ? await provider.issueInvoice(draft) : await provider.issueCreditNote(draft);
    return await finish(db, row, claim, result, now, draft.numbering);
  } catch (error) {
    return failed(db, row, claim, error, now);
  }
}

async function draftOf(db: Db, row: InvoiceRow, claim: string, provider: EInvoiceProvider, settings: ReturnType<typeof openSettings>, now: Date) {
  let numbering: CallerNumbering | null = null;
  if (provider.numbering === 'caller') {
    const number = await reserveCallerNumber(db, { id: row.id, claim, merchantId: row.merchantId, kind: row.kind });
    if (number === undefined) throw new LostClaim();
    if (row.kind === 'INVOICE') {
      if (!settings.resolution) throw new EInvoiceDraftError('resolution', 'the merchant has no DIAN resolution set');
      numbering = { prefix: settings.resolution.prefix, number, resolution: settings.resolution };
    } else numbering = { prefix: CREDIT_NOTE_PREFIX, number, resolution: null };
  }
  const common = {
    reference: referenceOf(row),
    issuedAt: now,
    buyer: row.buyer as unknown as Buyer,
    lines: row.lines as LineInput[],
    paymentMethod: row.paymentMethod,
    numbering,
  };
  if (row.kind === 'INVOICE') return invoiceDraft({ ...common, period: { start: row.periodStart!, end: row.periodEnd! } });
  const invoice = await getInvoice(db, row.invoiceId!);
  if (!invoice?.number || !invoice.cufe || !invoice.issueDate) throw new EInvoiceDraftError('invoice', 'the credit note cites an invoice that was not issued');
  const prefix = invoice.callerPrefix ?? invoice.number.replace(/\d+$/, '');
  return creditNoteDraft({ ...common, concept: '2', invoice: { number: invoice.number, prefix, cufe: invoice.cufe, issueDate: invoice.issueDate } });
}

/** Records DIAN's answer; an invoice voided meanwhile gets its credit note (issued) or is cancelled (rejected). */
async function finish(db: Db, row: InvoiceRow, claim: string, result: IssueResult, now: Date, numbering: CallerNumbering | null): Promise<Outcome> {
  return inTransaction(db, async (tx, outbox) => {
    const key = { id: row.id, claim };
    if (result.status === 'ISSUED') {
      const done = await finishInvoice(tx, key, {
        status: 'ISSUED',
        number: result.number,
        cufe: result.cufe,
        qrUrl: result.qrUrl,
        pdfUrl: result.pdfUrl ?? null,
        providerId: result.providerId,
        warnings: result.warnings,
        errors: [],
        lastError: null,
        callerPrefix: numbering?.prefix ?? null,
        issueDate: bogotaDate(now),
        issuedAt: now,
      });
      if (!done) return 'lost';
      await noteDecided(tx, outbox, done, now);
      if (done.kind === 'INVOICE') await sendIfReceiptWent(tx, outbox, done, now);
      if (numbering?.resolution) await noteRangeUse(tx, outbox, row.merchantId, numbering.resolution, numbering.number, now);
      if (done.kind === 'INVOICE' && done.voidedAt) await insertCreditNote(tx, outbox, done, now);
      return 'issued';
    }
    const done = await finishInvoice(tx, key, { status: 'REJECTED', errors: result.errors, lastError: null });
    if (!done) return 'lost';
    if (done.voidedAt) {
      await cancelUnvalidatedInvoice(tx, done.id, now);
      return 'cancelled';
    }
    await noteDecided(tx, outbox, done, now);
    return 'rejected';
  });
}

/** An invoice issued after its receipt stopped waiting for it (and went without it) follows in an e-mail of its own. */
async function sendIfReceiptWent(tx: Db, outbox: Outbox, row: InvoiceRow, now: Date): Promise<void> {
  const receiptAt = await receiptWrittenAt(tx, row.transactionId);
  if (!receiptAt || now.getTime() - receiptAt.getTime() < RECEIPT_WAITS_FOR_INVOICE_MS || !row.number || !row.cufe || !row.qrUrl) return;
  const [plan, txn] = await Promise.all([getPlanForMerchant(tx, { merchantId: row.merchantId, planId: row.planId }), getTransactionOfPlan(tx, { planId: row.planId, transactionId: row.transactionId })]);
  if (!plan || !txn) return;
  await queueCustomerEmail(tx, outbox, 'invoice', { plan, txn, now, invoice: { number: row.number, cufe: row.cufe, qrUrl: row.qrUrl } });
}

/** DIAN's answer as the merchant's opt-in `invoice.issued` or `invoice.rejected` event. */
async function noteDecided(tx: Db, outbox: Outbox, row: InvoiceRow, now: Date): Promise<void> {
  const plan = await getPlanForMerchant(tx, { merchantId: row.merchantId, planId: row.planId });
  if (!plan) return;
  await recordLifecycleEvent(tx, outbox, plan, row.status === 'ISSUED' ? 'invoice.issued' : 'invoice.rejected', now, { invoice: invoiceView(row) });
}

/** A voided charge's invoice that an issuer may have sent: issued after all, it is recorded (and annulled); otherwise cancelled. */
async function settleVoided(db: Db, row: InvoiceRow, claim: string, provider: EInvoiceProvider, now: Date): Promise<Outcome> {
  // This claim counts as an attempt: only an earlier one can have reached the provider.
  const mayExist = row.attempts > 1 && (provider.numbering === 'provider' || row.callerNumber !== null);
  const number = row.callerNumber !== null ? `${row.callerPrefix ?? ''}${row.callerNumber}` : undefined;
  const found = mayExist ? await provider.findDocument({ kind: row.kind, reference: referenceOf(row), providerId: row.providerId ?? undefined, number }) : null;
  if (found?.status === 'ISSUED') return finish(db, row, claim, found, now, null);
  const done = await finishInvoice(db, { id: row.id, claim }, { status: 'CANCELLED' });
  return done ? 'cancelled' : 'lost';
}

function describe(error: unknown): string {
  if (error instanceof EInvoiceAuthError) return `credentials refused: ${error.message}`;
  if (error instanceof EInvoiceRetryableError) return error.message;
  return 'unexpected error';
}

/** A failed attempt: a draft we cannot issue is REJECTED; anything else is retried with backoff until the 72 h are over, then FAILED. */
async function failed(db: Db, row: InvoiceRow, claim: string, error: unknown, now: Date): Promise<Outcome> {
  if (error instanceof LostClaim) return 'lost';
  const key = { id: row.id, claim };
  try {
    if (error instanceof EInvoiceDraftError) {
      return await finish(db, row, claim, { status: 'REJECTED', errors: [{ rule: error.field, message: error.message }] }, now, null);
    }
    const message = describe(error);
    const fields = { invoiceId: row.id, merchantId: row.merchantId, attempt: row.attempts, ...errorFields(error) };
    if (!(error instanceof EInvoiceRetryableError) && !(error instanceof EInvoiceAuthError)) log.error('issuing an invoice failed unexpectedly; it will be tried again', fields);
    const retryAfterMs = error instanceof EInvoiceRetryableError ? error.retryAfterMs : undefined;
    return await inTransaction(db, async (tx, outbox): Promise<Outcome> => {
      if (now.getTime() < row.retryUntil.getTime()) {
        const waiting = await finishInvoice(tx, key, { nextAttemptAt: new Date(now.getTime() + retryDelayMs(row.attempts, retryAfterMs)), lastError: message });
        return waiting ? 'retrying' : 'lost';
      }
      const done = await finishInvoice(tx, key, { status: 'FAILED', lastError: message });
      if (!done) return 'lost';
      if (done.voidedAt) {
        await cancelUnvalidatedInvoice(tx, done.id, now);
        return 'cancelled';
      }
      log.warn('an invoice could not be issued in 72 hours; the merchant retries it from the portal', fields);
      await noteInvoiceFailed(tx, outbox, row.merchantId, message, now);
      return 'failed';
    });
  } catch (recording) {
    // The lease lapses and the next sweep tries it again.
    log.error('recording an invoice attempt failed', { invoiceId: row.id, ...errorFields(recording) });
    return 'lost';
  }
}
