import type { Db } from '@/db/client';
import { ApiError } from '@/lib/api/errors';
import { createCoupon } from '@/lib/coupons/coupons';
import { type CouponView, createCouponBodySchema } from '@/lib/coupons/schemas';
import type { CouponsCopy } from './coupons-i18n';

// The portal's new-coupon form (docs/portal.md#coupons) as the API's body; refused fields named
// with the form's labels.

type Field = keyof CouponsCopy['labels'];

const FIELD_OF: Record<string, Field> = {
  code: 'code',
  percentOff: 'value',
  amountOff: 'value',
  duration: 'duration',
  durationInPeriods: 'periods',
  maxRedemptions: 'maxRedemptions',
  redeemBy: 'redeemBy',
};

/** A whole number as typed ("5.000" and "5000" alike), or the text itself for the schema to refuse. */
function wholeNumber(value: string): number | string | undefined {
  const trimmed = value.trim().replace(/[.\s]/g, '');
  if (trimmed === '') return undefined;
  return /^\d{1,12}$/.test(trimmed) ? Number(trimmed) : value;
}

export function couponBodyOf(form: Record<string, string>): Record<string, unknown> {
  const value = wholeNumber(form.value ?? '');
  const pesos = form.kind === 'amount';
  const day = (form.redeemBy ?? '').trim();
  return {
    ...(form.code?.trim() ? { code: form.code } : {}),
    ...(pesos ? { amountOff: typeof value === 'number' ? value * 100 : value } : { percentOff: value }),
    duration: form.duration,
    ...(form.duration === 'repeating' ? { durationInPeriods: wholeNumber(form.periods ?? '') } : {}),
    ...(wholeNumber(form.maxRedemptions ?? '') !== undefined ? { maxRedemptions: wholeNumber(form.maxRedemptions ?? '') } : {}),
    ...(day ? { redeemBy: /^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day}T23:59:59-05:00` : day } : {}),
  };
}

export type CouponFormResult = { ok: true; coupon: CouponView } | { ok: false; problems: string[] };

export async function createCouponFromForm(db: Db, merchantId: string, form: Record<string, string>, t: CouponsCopy): Promise<CouponFormResult> {
  const parsed = createCouponBodySchema.safeParse(couponBodyOf(form));
  const named = (path: string, message: string) => `${t.labels[FIELD_OF[path] ?? 'value']}: ${message}`;
  if (!parsed.success) {
    return { ok: false, problems: parsed.error.issues.map((issue) => named(String(issue.path[0] ?? ''), issue.message)) };
  }
  try {
    return { ok: true, coupon: await createCoupon(db, merchantId, parsed.data) };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    const details = error.options.details ?? [{ path: 'code', message: error.message }];
    return { ok: false, problems: details.map((d) => named(d.path, d.message)) };
  }
}
