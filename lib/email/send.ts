import nodemailer, { type Transporter } from 'nodemailer';
import { env } from '@/lib/env';
import { errorFields, log } from '@/lib/log';
import { registerHandOff } from '@/lib/outbox';
import { type Db, getDb } from '@/db/client';
import { isProductionDeployment } from '@/lib/processors';
import { ApiError } from '@/lib/api/errors';
import { loadReceiptPdf } from '@/lib/receipts/receipt';
import { claimEmail, type EmailRow, findEmail, findUnsentEmails, findUnsentReceipt, recordEmailAttempt, releaseEmailClaim, updateEmailBody } from '@/db/queries/emails';
import { invoicesOfTransaction } from '@/db/queries/invoices';
import { MAX_EMAIL_ATTEMPTS, nextEmailAttemptAt } from './attempts';
import { withReceiptInvoice } from './templates';

// Sending e-mails (docs/customers.md#e-mails) over SMTP_URL; without it, outside production, each is
// kept (shown at /dev/emails) and sent nowhere. Every attempt is recorded.

const EMAIL_LEASE_MS = 60_000;
export const EMAIL_SWEEP_GRACE_MS = 30_000;
const SMTP_TIMEOUT_MS = 10_000;

let transport: { url: string; transporter: Transporter } | undefined;

function smtp(url: string): Transporter {
  if (transport?.url !== url) {
    transport = {
      url,
      transporter: nodemailer.createTransport(url, {
        connectionTimeout: SMTP_TIMEOUT_MS,
        greetingTimeout: SMTP_TIMEOUT_MS,
        socketTimeout: SMTP_TIMEOUT_MS,
      } as Parameters<typeof nodemailer.createTransport>[1]),
    };
  }
  return transport.transporter;
}

/** A receipt e-mail carries its charge's receipt PDF (docs/customers.md#receipts), rendered again: the same bytes every time. */
async function attachmentsOf(db: Db, email: EmailRow) {
  if (email.kind !== 'receipt' || !email.transactionId) return [];
  const receipt = await loadReceiptPdf(db, { transactionId: email.transactionId, merchantId: email.merchantId });
  return receipt ? [{ filename: receipt.fileName, content: receipt.pdf, contentType: 'application/pdf' }] : [];
}

async function attempt(db: Db, email: EmailRow): Promise<{ transport: string; ok: boolean; error: string | null; response: string | null }> {
  const settings = env();
  if (!settings.SMTP_URL) {
    if (isProductionDeployment(settings)) {
      return { transport: 'smtp', ok: false, error: 'not_configured: SMTP_URL is not set', response: null };
    }
    return { transport: 'kept', ok: true, error: null, response: 'kept for /dev/emails; not sent (no SMTP_URL)' };
  }
  try {
    const info = await smtp(settings.SMTP_URL).sendMail({
      from: settings.EMAIL_FROM,
      to: email.toAddress,
      subject: email.subject,
      text: email.text,
      html: email.html,
      messageId: `<${email.id}@servicepay>`,
      attachments: await attachmentsOf(db, email),
    });
    return { transport: 'smtp', ok: true, error: null, response: String(info.response ?? '').slice(0, 500) };
  } catch (error) {
    const e = error as { code?: string; message?: string; response?: string };
    return { transport: 'smtp', ok: false, error: `${e.code ?? 'smtp_error'}: ${e.message ?? String(error)}`.slice(0, 500), response: e.response?.slice(0, 500) ?? null };
  }
}

type Delivery = { status: 'sent' | 'skipped' } | { status: 'failed'; error: string | null };

/** How long a receipt waits for its charge's electronic invoice before it goes without it. */
export const RECEIPT_WAITS_FOR_INVOICE_MS = 10 * 60_000;

/**
 * A receipt whose charge is invoiced (docs/einvoicing.md#where-it-shows): it waits while the
 * invoice is PENDING (up to 10 minutes), then carries its number, CUFE and DIAN's link once
 * ISSUED, kept in the row as sent. null: wait.
 */
async function receiptWithInvoice(db: Db, email: EmailRow, now: Date): Promise<EmailRow | null> {
  if (email.kind !== 'receipt' || !email.transactionId) return email;
  const invoice = (await invoicesOfTransaction(db, email.transactionId)).find((i) => i.kind === 'INVOICE');
  if (!invoice) return email;
  if (invoice.status === 'PENDING' && now.getTime() - email.createdAt.getTime() < RECEIPT_WAITS_FOR_INVOICE_MS) return null;
  if (invoice.status !== 'ISSUED' || !invoice.number || !invoice.cufe || !invoice.qrUrl) return email;
  const body = withReceiptInvoice(email, { number: invoice.number, cufe: invoice.cufe, qrUrl: invoice.qrUrl });
  if (body.text === email.text) return email;
  await updateEmailBody(db, email.id, body);
  return { ...email, ...body };
}

/** The receipt of a charge whose invoice was just decided, sent now if it was waiting for it. */
export async function sendWaitingReceipt(db: Db, transactionId: string): Promise<void> {
  const id = await findUnsentReceipt(db, transactionId);
  if (!id) return;
  await releaseEmailClaim(db, id);
  await deliverEmail(db, id);
}

async function deliver(db: Db, id: string, now: Date, givenUp: boolean): Promise<Delivery> {
  const claimed = await claimEmail(db, id, { now, until: new Date(now.getTime() + EMAIL_LEASE_MS), maxAttempts: MAX_EMAIL_ATTEMPTS, givenUp });
  if (!claimed) return { status: 'skipped' };
  // Held until its invoice is decided; the claim lapses and the sweeper or the invoice sends it.
  const email = await receiptWithInvoice(db, claimed, now);
  if (!email) return { status: 'skipped' };
  const started = performance.now();
  const result = await attempt(db, email);
  // A failed attempt waits for the next one, due by the retry schedule (./outbox.ts).
  const next = result.ok ? null : nextEmailAttemptAt(email.attempts + 1, now);
  await recordEmailAttempt(db, email.id, { ...result, attemptedAt: new Date(), latencyMs: Math.round(performance.now() - started) }, next);
  if (result.ok) return { status: 'sent' };
  const fields = { emailId: id, attempt: email.attempts + 1, error: result.error };
  if (next) log.warn('e-mail not sent; it will be tried again', { ...fields, nextAttemptAt: next.toISOString() });
  else log.error('e-mail not sent, and no attempt is left: the plan page in the portal offers to send it again', fields);
  return { status: 'failed', error: result.error };
}

/** Sends one e-mail if it is still unsent, due and no one else is sending it; records the attempt. */
export async function deliverEmail(db: Db, id: string, now: Date = new Date()): Promise<'sent' | 'failed' | 'skipped'> {
  return (await deliver(db, id, now, false)).status;
}

/** The portal's "send again" for an e-mail given up: one attempt now; 403 or 404 as for any resource. */
export async function resendGivenUpEmail(db: Db, merchantId: string, id: string): Promise<Delivery> {
  const email = await findEmail(db, id);
  if (!email) throw new ApiError('not_found', 'No such e-mail');
  if (email.merchantId !== merchantId) throw new ApiError('forbidden', "Another merchant's e-mail");
  return deliver(db, id, new Date(), true);
}

/** The safety net: sends e-mails left unsent and due (a crash after commit, an SMTP outage); returns how many were tried. */
export async function sweepEmails(db: Db, now: Date = new Date()): Promise<number> {
  const ids = await findUnsentEmails(db, { createdBefore: new Date(now.getTime() - EMAIL_SWEEP_GRACE_MS), now, limit: 100, maxAttempts: MAX_EMAIL_ATTEMPTS });
  for (const id of ids) await deliverEmail(db, id, now);
  return ids.length;
}

// The e-mails a unit of work recorded are sent once it commits (lib/outbox.ts): registered here,
// beside the sending, and loaded by every recorder (record.ts).
registerHandOff('emails', {
  async send({ emailIds }) {
    if (emailIds.length === 0) return;
    try {
      const db = await getDb();
      for (const id of emailIds) await deliverEmail(db, id);
    } catch (error) {
      log.error('sending e-mails failed; the sweeper will send them', { emailIds, ...errorFields(error) });
    }
  },
});
