// GET /portal/export/invoices?status=: the signed-in merchant's electronic invoices as CSV (docs/einvoicing.md#where-it-shows).
import { listInvoices } from '@/db/queries/invoices';
import { CSV_EXPORT_LIMIT, toCsv } from '@/lib/portal/csv';
import { csvExport } from '@/lib/portal/csv-export';
import { invoiceStatusOf } from '@/lib/portal/einvoicing-page';
import { paramOf } from '@/lib/search-params';

export const GET = csvExport('invoices.csv', (params) => ({ status: invoiceStatusOf(paramOf(params, 'status')) }), async (db, merchantId, filter) => {
  const rows = await listInvoices(db, { merchantId, status: filter.status, limit: CSV_EXPORT_LIMIT });
  return toCsv(
    ['id', 'kind', 'subscriptionTransactionId', 'invoiceId', 'status', 'number', 'cufe', 'qrUrl', 'total', 'iva', 'periodStart', 'periodEnd', 'issuedAt', 'errors'],
    rows.map((i) => [
      i.id, i.kind, i.transactionId, i.invoiceId, i.status, i.number, i.cufe, i.qrUrl, i.total, i.ivaAmount, i.periodStart, i.periodEnd, i.issuedAt?.toISOString() ?? null,
      i.errors.map((e) => `${e.rule}: ${e.message}`).join(' | '),
    ]),
  );
});
