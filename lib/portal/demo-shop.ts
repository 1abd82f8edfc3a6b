import { getDb } from '@/db/client';
import { getPlanWithLastTransaction } from '@/db/queries/plans';
import { listPlanEvents } from '@/db/queries/webhooks';
import { ApiError } from '@/lib/api/errors';
import { isId, randomBase62 } from '@/lib/ids';
import { createPaymentLink } from '@/lib/plans/create-link';
import type { PaymentLink, PlanStatusView } from '@/lib/plans/schemas';
import { toPlanStatus } from '@/lib/plans/views';
import { getRateLimiter } from '@/lib/rate-limit';
import { demoAvailable, findOrCreateDemoMerchant } from './demo-merchant';
import { inTransaction } from '@/lib/unit-of-work';

// What the /demo page's server actions do, as the demo merchant's backend would: create a link,
// then read the plan status and the webhook events of that plan. Only ever the demo merchant's.

export const DEMO_PLAN = { description: 'Plan Gimnasio mensual', amount: 4_990_000 } as const;

interface DemoWebhookEvent {
  id: string;
  type: string;
  /** The exact bytes recorded (and signed, and sent when a URL is configured). */
  body: string;
  attempts: { attemptedAt: string; statusCode: number | null; ok: boolean; error: string | null }[];
}

/** What the demo page's actions answer: their value, or the error to show. */
export type DemoResult<T> = { ok: true; value: T } | { ok: false; error: string };

export interface DemoSnapshot {
  status: PlanStatusView;
  webhookEvents: DemoWebhookEvent[];
  webhookUrl: string | null;
}

function assertAvailable() {
  if (!demoAvailable()) throw new ApiError('not_found', 'The demo is not available on this deployment');
}

/** A link of the demo merchant; the per-IP checkout limit keeps a visitor from filling the database. */
export async function createDemoLink(clientIp: string): Promise<PaymentLink> {
  assertAvailable();
  const limited = await getRateLimiter().limit('checkout-session', clientIp);
  if (!limited.success) throw new ApiError('rate_limited', 'Too many demo links from this address; wait a minute');
  const db = await getDb();
  const merchant = await findOrCreateDemoMerchant(db);
  return inTransaction(db, (tx) =>
    createPaymentLink(tx, merchant.id, {
      customer: { phone: '+573001234567', email: 'ana@example.com', firstName: 'Ana' },
      plan: { externalReference: `demo-${randomBase62(12)}`, ...DEMO_PLAN, modality: 'RECURRING' },
    }),
  );
}

export async function demoSnapshot(planId: string): Promise<DemoSnapshot> {
  assertAvailable();
  const db = await getDb();
  const merchant = await findOrCreateDemoMerchant(db);
  const scope = { merchantId: merchant.id, planId };
  const found = isId('sub', planId) ? await getPlanWithLastTransaction(db, scope) : undefined;
  if (!found) throw new ApiError('not_found', 'No plan of the demo merchant with this id');
  const events = await listPlanEvents(db, scope.merchantId, scope.planId);
  return {
    status: toPlanStatus(found.plan, found.lastTransaction),
    webhookUrl: merchant.webhookUrl,
    webhookEvents: events.map((event) => ({
      id: event.id,
      type: event.type,
      body: event.body,
      attempts: event.attempts.map((a) => ({ attemptedAt: a.attemptedAt.toISOString(), statusCode: a.statusCode, ok: a.ok, error: a.error })),
    })),
  };
}
