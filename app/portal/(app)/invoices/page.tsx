// /portal/invoices (docs/einvoicing.md#where-it-shows): the merchant's electronic invoices and
// credit notes, their state and DIAN's reasons, a retry for a rejected or failed one, and a CSV.
// Every form is a plain GET or a server action, so all of it works without JavaScript.
import { Allowed } from '@/components/portal/allowed';
import { SelectField } from '@/components/portal/select-field';
import { ActionForm } from '@/components/portal/action-form';
import { TableCard } from '@/components/portal/data-table';
import { getDb } from '@/db/client';
import { INVOICE_STATUSES } from '@/db/schema';
import { formatCop } from '@/lib/i18n/format';
import { retryInvoiceAction } from '@/lib/portal/einvoicing/actions';
import { einvoicingCopy } from '@/lib/portal/einvoicing-i18n';
import { invoiceStatusOf, loadInvoicesPage } from '@/lib/portal/einvoicing-page';
import { portalLang, requireUser } from '@/lib/portal/request';
import { paramOf } from '@/lib/search-params';

export default async function InvoicesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { merchantId } = await requireUser();
  const { lang } = await portalLang();
  const t = einvoicingCopy(lang);
  const status = invoiceStatusOf(paramOf(await searchParams, 'status'));
  const rows = await loadInvoicesPage(await getDb(), merchantId, { status });
  const copy = { label: t.copy, copied: t.copied };
  return (
    <>
      <h1>{t.invoicesTitle}</h1>
      <p>{t.invoicesIntro}</p>
      <form method="get" className="card filters">
        <SelectField label={t.filter} name="status" defaultValue={status ?? ''} any={t.all} options={INVOICE_STATUSES.map((s) => ({ value: s, label: t.statuses[s] }))} />
        <button type="submit" className="secondary">
          {t.apply}
        </button>
        <a href={`/portal/export/invoices${status ? `?status=${status}` : ''}`} download>
          {t.csv}
        </a>
      </form>
      <TableCard
        id="invoices-list"
        title={t.invoicesTitle}
        empty={<p>{t.none}</p>}
        rows={rows}
        rowKey={(i) => i.id}
        columns={[
          { label: t.columns.kind, cell: (i) => t.kinds[i.kind] },
          { label: t.columns.status, cell: (i) => <span data-testid="invoice-status">{t.statuses[i.status]}</span> },
          { label: t.columns.number, cell: (i) => (i.number && i.qrUrl ? <a href={i.qrUrl}>{i.number}</a> : '—') },
          { label: t.columns.total, numeric: true, cell: (i) => formatCop(i.total) },
          { label: t.columns.iva, numeric: true, cell: (i) => formatCop(i.ivaAmount) },
          { label: t.columns.period, cell: (i) => (i.periodStart ? `${i.periodStart} – ${i.periodEnd}` : '—') },
          {
            label: t.columns.reasons,
            cell: (i) =>
              i.errors.length > 0 ? (
                <ul>
                  {i.errors.map((e) => (
                    <li key={`${e.rule}-${e.message}`}>
                      <code>{e.rule}</code> {e.message}
                    </li>
                  ))}
                </ul>
              ) : i.status === 'FAILED' ? (
                t.failed
              ) : i.status === 'PENDING' && i.lastError ? (
                t.waiting
              ) : (
                '—'
              ),
          },
          {
            label: t.columns.action,
            hideLabel: true,
            cell: (i) =>
              i.status === 'REJECTED' || i.status === 'FAILED' ? (
                <Allowed to="business">
                  <ActionForm action={retryInvoiceAction} submit={t.retry} pending={t.pending} copy={copy}>
                    <input type="hidden" name="invoiceId" value={i.id} />
                  </ActionForm>
                </Allowed>
              ) : null,
          },
        ]}
      />
    </>
  );
}
