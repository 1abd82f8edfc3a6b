import type { Db } from '@/db/client';
import { getPlanByToken } from '@/db/queries/transactions';
import type { PlanStatus } from '@/db/schema';
import { ApiError } from '@/lib/api/errors';

// SPEC 2.4 / 4.4 and DECISIONS 6: what the checkout shows, found by the token alone.

export const TOKEN_PATTERN = /^[A-Za-z0-9]{10}$/;

export interface CheckoutSessionView {
  customer: { phone: string; firstName: string | null };
  planName: string;
  amount: number;
  currency: 'COP';
  merchantName: string;
  merchantId: string;
  modality: 'SUBSCRIPTION' | 'SINGLE';
  expiresAt: number;
  allowedDomains: string[];
  status: PlanStatus;
}

const notFound = () => new ApiError('not_found', 'No checkout session with this token');

/** The plan behind a token, or 404 (unknown or malformed) / 400 session_expired (an unpaid link past its expiry). */
export async function findCheckoutPlan(db: Db, token: string, now: Date = new Date()) {
  if (!TOKEN_PATTERN.test(token)) throw notFound();
  const found = await getPlanByToken(db, token);
  if (!found) throw notFound();
  // A link that was paid, paused or cancelled still resolves after its expiry, so the page can
  // say what happened; only an unpaid link expires.
  if (found.plan.status === 'PENDING_ACTIVATION' && found.plan.tokenExpiresAt <= now) {
    throw new ApiError('session_expired', 'This checkout link has expired; ask the merchant for a new one');
  }
  return found;
}

export async function loadCheckoutSession(db: Db, token: string, now: Date = new Date()): Promise<CheckoutSessionView> {
  const { plan, merchantName, allowedDomains } = await findCheckoutPlan(db, token, now);
  return {
    customer: { phone: plan.customerPhone, firstName: plan.customerFirstName },
    planName: plan.description,
    amount: plan.amount,
    currency: 'COP',
    merchantName,
    merchantId: plan.merchantId,
    modality: plan.modality === 'RECURRING' ? 'SUBSCRIPTION' : 'SINGLE',
    expiresAt: plan.tokenExpiresAt.getTime(),
    allowedDomains,
    status: plan.status,
  };
}
