'use server';

// Cupones' server actions (docs/portal.md#coupons): each acts only on the signed-in user's
// merchant; Next refuses one posted from another origin.

import { revalidatePath } from 'next/cache';
import { headers } from 'next/headers';
import { getDb } from '@/db/client';
import { ApiError } from '@/lib/api/errors';
import { LANG_HEADER } from '@/lib/checkout/i18n';
import { deleteCoupon } from '@/lib/coupons/coupons';
import { fill } from '@/lib/i18n/format';
import { createCouponFromForm } from '@/lib/portal/coupon-form';
import { couponsCopy } from '@/lib/portal/coupons-i18n';
import type { FormState } from '@/lib/portal/form-state';
import { signedIn } from '@/lib/portal/request';

const FIELDS = ['code', 'kind', 'value', 'duration', 'periods', 'maxRedemptions', 'redeemBy'] as const;

async function copy() {
  return couponsCopy((await headers()).get(LANG_HEADER) === 'en' ? 'en' : 'es');
}

export async function createCouponAction(_: FormState, form: FormData): Promise<FormState> {
  const { merchantId, refused } = await signedIn('business');
  if (refused) return refused;
  const t = await copy();
  const values = Object.fromEntries(FIELDS.map((name) => [name, String(form.get(name) ?? '')]));
  const result = await createCouponFromForm(await getDb(), merchantId, values, t);
  if (!result.ok) return { status: 'error', message: t.problem, details: result.problems };
  revalidatePath('/portal/coupons');
  const { code, id } = result.coupon;
  return { status: 'ok', message: code ? fill(t.created, { code }) : fill(t.createdNoCode, { id }) };
}

export async function deleteCouponAction(_: FormState, form: FormData): Promise<FormState> {
  const { merchantId, refused } = await signedIn('business');
  if (refused) return refused;
  const t = await copy();
  try {
    await deleteCoupon(await getDb(), merchantId, String(form.get('couponId') ?? ''));
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) return { status: 'error', message: t.deleteMissing };
    throw error;
  }
  revalidatePath('/portal/coupons');
  return { status: 'ok', message: t.deleted };
}
