// /portal/coupons (docs/portal.md#coupons): the merchant's coupons, a new one, deletion. Every form
// is a server action, so all of it works without JavaScript.
import { Allowed } from '@/components/portal/allowed';
import { SelectField } from '@/components/portal/select-field';
import { Card } from '@/components/portal/card';
import { ActionForm } from '@/components/portal/action-form';
import { TableCard } from '@/components/portal/data-table';
import { getDb } from '@/db/client';
import type { CouponView } from '@/lib/coupons/schemas';
import { listCoupons } from '@/lib/coupons/coupons';
import { fill, formatCop } from '@/lib/i18n/format';
import { type CouponsCopy, couponsCopy } from '@/lib/portal/coupons-i18n';
import { portalLang, requireUser } from '@/lib/portal/request';
import { createCouponAction, deleteCouponAction } from '@/lib/portal/coupons/actions';

const PAGE = 100;

function durationOf(c: CouponView, t: CouponsCopy): string {
  if (c.duration === 'forever') return t.everyCharge;
  if (c.duration === 'once') return t.firstCharge;
  return fill(t.charges, { n: c.durationInPeriods ?? 0 });
}

function dayOf(iso: string, lang: 'es' | 'en'): string {
  return new Intl.DateTimeFormat(lang === 'es' ? 'es-CO' : 'en-US', { dateStyle: 'medium', timeZone: 'America/Bogota' }).format(new Date(iso));
}

export default async function CouponsPage() {
  const { merchantId } = await requireUser();
  const { lang } = await portalLang();
  const t = couponsCopy(lang);
  const { data: coupons } = await listCoupons(await getDb(), merchantId, { limit: PAGE });
  const copy = { label: t.copy, copied: t.copied };
  return (
    <>
      <h1>{t.title}</h1>
      <p>{t.intro}</p>
      <TableCard
        id="coupons-list"
        title={t.listTitle}
        empty={<p>{t.none}</p>}
        rows={coupons}
        rowKey={(c) => c.id}
        columns={[
          { label: t.columns.code, cell: (c) => (c.code ? <code>{c.code}</code> : t.noCode) },
          { label: t.columns.discount, numeric: true, cell: (c) => (c.percentOff !== null ? `${c.percentOff} %` : formatCop(c.amountOff ?? 0)) },
          { label: t.columns.duration, cell: (c) => durationOf(c, t) },
          { label: t.columns.redemptions, numeric: true, cell: (c) => `${c.timesRedeemed} / ${c.maxRedemptions ?? t.unlimited}` },
          { label: t.columns.redeemBy, when: true, cell: (c) => (c.redeemBy ? dayOf(c.redeemBy, lang) : t.noDate) },
          { label: t.columns.id, cell: (c) => <code>{c.id}</code> },
          {
            label: t.delete,
            hideLabel: true,
            cell: (c) => (
              <Allowed to="business">
                <ActionForm action={deleteCouponAction} submit={t.delete} pending={t.pending} copy={copy} danger warning={t.deleteWarning}>
                  <input type="hidden" name="couponId" value={c.id} />
                  <span className="visually-hidden">{fill(t.deleteCoupon, { code: c.code ?? c.id })}</span>
                </ActionForm>
              </Allowed>
            ),
          },
        ]}
      />
      <Card id="coupons-new" title={t.createTitle}>
        <Allowed to="business">
          <ActionForm action={createCouponAction} submit={t.create} pending={t.pending} copy={copy}>
            <label>
              {t.labels.code}
              <input name="code" autoComplete="off" maxLength={40} aria-describedby="coupon-code-hint" />
            </label>
            <p id="coupon-code-hint" className="hint">
              {t.codeHint}
            </p>
            <fieldset>
              <legend>{t.labels.kind}</legend>
              <label>
                <input type="radio" name="kind" value="percent" defaultChecked /> {t.labels.percent}
              </label>
              <label>
                <input type="radio" name="kind" value="amount" /> {t.labels.amount}
              </label>
            </fieldset>
            <label>
              {t.labels.value}
              <input name="value" inputMode="numeric" autoComplete="off" required />
            </label>
            <SelectField label={t.labels.duration} name="duration" defaultValue="once" options={(['once', 'repeating', 'forever'] as const).map((d) => ({ value: d, label: t.durations[d] }))} />
            <label>
              {t.labels.periods}
              <input name="periods" inputMode="numeric" autoComplete="off" />
            </label>
            <label>
              {t.labels.maxRedemptions}
              <input name="maxRedemptions" inputMode="numeric" autoComplete="off" />
            </label>
            <label>
              {t.labels.redeemBy}
              <input name="redeemBy" type="date" />
            </label>
          </ActionForm>
        </Allowed>
      </Card>
    </>
  );
}
