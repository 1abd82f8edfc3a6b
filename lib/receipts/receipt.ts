import type { Db } from '@/db/client';
import { invoicesOfTransaction } from '@/db/queries/invoices';
import { getReceiptRow } from '@/db/queries/receipts';
import { addInterval, intervalOf } from '@/lib/calendar/interval';
import type { Lang } from '@/lib/i18n/locale';
import { chargeLines } from './lines';
import { type Receipt, renderReceiptPdf } from './pdf';

// Receipts of approved charges (docs/customers.md#receipts): found by our transaction id within a
// plan or a merchant, rendered in the customer's language, the same bytes every time.

type Row = NonNullable<Awaited<ReturnType<typeof getReceiptRow>>>;

function receiptOf({ txn, plan, merchantName, merchantNit }: Row, lang: Lang = plan.customerLang): Receipt {
  const interval = intervalOf(plan);
  const periodStart = txn.periodStart ?? txn.chargeDate;
  return {
    lang,
    merchantName,
    merchantNit,
    customer: {
      name: [plan.customerFirstName, plan.customerLastName].filter(Boolean).join(' ') || null,
      email: plan.customerEmail,
      idType: plan.customerIdType,
      idNumber: plan.customerIdNumber,
    },
    description: plan.description,
    periodStart,
    // A proration pays the rest of a period already under way: only its date is shown.
    periodEnd: interval && txn.kind !== 'PRORATION' ? addInterval(periodStart, interval, plan.billingAnchorDay) : null,
    chargeDate: txn.chargeDate,
    listAmount: txn.amount + txn.discount,
    discount: txn.discount,
    amount: txn.amount,
    method: { type: txn.paymentMethodType, brand: txn.cardBrand, last4: txn.cardLast4 },
    lines: chargeLines(txn),
    transactionId: txn.id,
    gatewayTransactionId: txn.gatewayTransactionId,
  };
}

/** The file name a receipt is saved under: `recibo-txn_….pdf` (`receipt-…` in English). */
function receiptFileName(transactionId: string, lang: Lang): string {
  return `${lang === 'en' ? 'receipt' : 'recibo'}-${transactionId}.pdf`;
}

/** The receipt PDF of an APPROVED transaction in this scope, or null when there is none. */
export async function loadReceiptPdf(
  db: Db,
  scope: Parameters<typeof getReceiptRow>[1],
  lang?: Lang,
): Promise<{ pdf: Buffer; fileName: string } | null> {
  const row = await getReceiptRow(db, scope);
  if (!row) return null;
  const invoice = (await invoicesOfTransaction(db, row.txn.id)).find((i) => i.kind === 'INVOICE' && i.status === 'ISSUED');
  const receipt = { ...receiptOf(row, lang), invoice: invoice?.number && invoice.cufe && invoice.qrUrl ? { number: invoice.number, cufe: invoice.cufe, qrUrl: invoice.qrUrl } : null };
  return { pdf: await renderReceiptPdf(receipt), fileName: receiptFileName(row.txn.id, receipt.lang) };
}

/** A PDF download: inline, never cached by a shared cache (it names the customer). */
export function pdfResponse({ pdf, fileName }: { pdf: Buffer; fileName: string }): Response {
  return new Response(new Uint8Array(pdf), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${fileName}"`,
      'Cache-Control': 'private, no-store',
    },
  });
}
