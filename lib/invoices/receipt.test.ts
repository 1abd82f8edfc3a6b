import { and, eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { emails, invoices } from '@/db/schema';
import { payWithCard } from '@/lib/checkout/payments';
import { RECEIPT_WAITS_FOR_INVOICE_MS, sweepEmails } from '@/lib/email/send';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { loadReceiptPdf } from '@/lib/receipts/receipt';
import { createManageLink } from '@/lib/auth/manage-links';
import { loadManagePage } from '@/lib/customers/manage-page';
import { deliveriesSettled } from '@/lib/unit-of-work';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { factusDoubleAccount } from '@/test/factus-double';
import { withFactusDouble } from '@/test/invoice-doubles';
import { factusSettings, turnEInvoicingOn } from '@/test/invoices';
import { holdWebhookHandOffs, restoreWebhookQueue } from '@/test/webhook-queue';
import { issueDueInvoices } from './issue';

// The receipt of an invoiced charge (docs/einvoicing.md#where-it-shows): the e-mail waits for the
// invoice and carries its number, CUFE and DIAN's link; the PDF shows them; a receipt whose invoice
// takes over 10 minutes goes without it, and the invoice follows in an e-mail of its own; a merchant without e-invoicing gets the receipt as before.

let database: Database;
const factus = withFactusDouble();
beforeAll(async () => {
  database = await useTestDatabase();
  holdWebhookHandOffs();
});
afterAll(() => restoreWebhookQueue());
beforeEach(() => factus().clearFaults());

async function pay(eInvoicing: boolean) {
  const link = await createTestLink(database.db, { amount: 4_990_000 });
  if (eInvoicing) await turnEInvoicingOn(database.db, link.merchant.merchantId, factusSettings(factusDoubleAccount(factus())));
  const paid = await payWithCard(database.db, createSandboxProcessor({ pendingMs: 0 }), { token: link.token, card: parseCard(cardForm(CARDS.approved))! });
  return { link, transactionId: paid.subscriptionTransactionId! };
}
const receiptOf = async (transactionId: string) => (await database.db.select().from(emails).where(and(eq(emails.transactionId, transactionId), eq(emails.kind, 'receipt'))))[0]!;
const invoiceOf = async (transactionId: string) => (await database.db.select().from(invoices).where(eq(invoices.transactionId, transactionId)))[0]!;
async function pdfText(pdf: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
  return text;
}

describe('the receipt of an invoiced charge', () => {
  it('is sent once the invoice is issued, with its number, CUFE and DIAN\'s link, in the e-mail and the PDF', async () => {
    const { transactionId, link } = await pay(true);
    await deliveriesSettled();
    const invoice = await invoiceOf(transactionId);
    expect(invoice.status).toBe('ISSUED');
    const receipt = await receiptOf(transactionId);
    expect(receipt.sentAt).not.toBeNull();
    for (const fact of [`Factura electrónica: ${invoice.number}`, `CUFE: ${invoice.cufe}`, `Consúltela en la DIAN: ${invoice.qrUrl}`]) expect(receipt.text).toContain(fact);
    expect(receipt.html).toContain(`href="${invoice.qrUrl!.replace(/&/g, '&amp;')}"`);
    const text = await pdfText((await loadReceiptPdf(database.db, { transactionId, merchantId: link.merchant.merchantId }))!.pdf);
    for (const fact of ['Factura electrónica', invoice.number!, invoice.cufe!.slice(0, 40)]) expect(text.replace(/\s+/g, '')).toContain(fact.replace(/\s+/g, ''));
    const manage = await createManageLink(database.db, await link.plan(), { source: 'merchant' });
    const page = await loadManagePage(database.db, manage.url.split('/manage/')[1]!, { chosenLang: null, confirmCancel: false });
    expect(page?.invoices).toEqual([{ id: invoice.id, kind: 'INVOICE', number: invoice.number, qrUrl: invoice.qrUrl, total: 4_990_000, issuedAt: expect.any(Date) }]);
    // The receipt carried it: no e-mail of its own.
    expect(await database.db.select().from(emails).where(and(eq(emails.transactionId, transactionId), eq(emails.kind, 'invoice')))).toEqual([]);
  });

  it('waits while the invoice is pending, and goes without it after 10 minutes', async () => {
    factus().fail({ kind: 'status', status: 503, path: '/v2/bills', times: 5 });
    const { transactionId } = await pay(true);
    await deliveriesSettled();
    expect((await invoiceOf(transactionId)).status).toBe('PENDING');
    expect((await receiptOf(transactionId)).sentAt).toBeNull();
    await sweepEmails(database.db, new Date(Date.now() + 2 * 60_000));
    expect((await receiptOf(transactionId)).sentAt).toBeNull();
    await sweepEmails(database.db, new Date(Date.now() + RECEIPT_WAITS_FOR_INVOICE_MS + 60_000));
    const receipt = await receiptOf(transactionId);
    expect(receipt.sentAt).not.toBeNull();
    expect(receipt.text).not.toContain('Factura electrónica');
    factus().clearFaults();
    await issueDueInvoices(database.db, { ids: [(await invoiceOf(transactionId)).id], now: new Date(Date.now() + 3600_000) });
    const invoice = await invoiceOf(transactionId);
    expect(invoice.status).toBe('ISSUED');
    await deliveriesSettled();
    // The invoice follows in an e-mail of its own.
    const [own, ...more] = await database.db.select().from(emails).where(and(eq(emails.transactionId, transactionId), eq(emails.kind, 'invoice')));
    expect(more).toEqual([]);
    expect(own).toMatchObject({ toAddress: receipt.toAddress, subject: expect.stringMatching(/^Factura electrónica de su pago a /), sentAt: expect.any(Date) });
    for (const fact of ['49.900', `Factura electrónica: ${invoice.number}`, `CUFE: ${invoice.cufe}`, `Consúltela en la DIAN: ${invoice.qrUrl}`]) expect(own!.text).toContain(fact);
  });

  it('of a merchant without e-invoicing is sent at once, as before, and the manage page lists no invoice', async () => {
    const { transactionId, link } = await pay(false);
    await deliveriesSettled();
    const receipt = await receiptOf(transactionId);
    expect(receipt.sentAt).not.toBeNull();
    expect(receipt.text).not.toContain('CUFE');
    const manage = await createManageLink(database.db, await link.plan(), { source: 'merchant' });
    expect((await loadManagePage(database.db, manage.url.split('/manage/')[1]!, { chosenLang: null, confirmCancel: false }))?.invoices).toEqual([]);
  });
});
