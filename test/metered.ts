// Metered plans for the usage tests: a fresh merchant's monthly plan of 5 seats at $ 10.000 with
// $ 200 a unit over 100, pending or paid with the sandbox's approved card.
import { expect } from 'vitest';
import type { Db } from '@/db/client';
import { payWithCard } from '@/lib/checkout/payments';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { CARDS, cardForm } from './checkout';
import { createTestMerchant, type TestMerchant } from './merchants';
import { postLink } from './plans';

export const sandbox = createSandboxProcessor({ pendingMs: 0 });

export interface MeteredPlan {
  merchant: TestMerchant;
  id: string;
  token: string;
}

/** Still pending: its first payment not made. */
export async function meteredPlan(db: Db, plan: Record<string, unknown> = {}, merchant?: TestMerchant): Promise<MeteredPlan> {
  const owner = merchant ?? (await createTestMerchant(db));
  const res = await postLink(owner, { amount: 1_000_000, quantity: 5, usage: { unitAmount: 20_000, includedUnits: 100 }, ...plan });
  expect(res.status).toBe(200);
  return { merchant: owner, id: res.json.subscriptionPlanId as string, token: res.json.token as string };
}

/** ACTIVE: its first payment approved. */
export async function paidMeteredPlan(db: Db, plan: Record<string, unknown> = {}, merchant?: TestMerchant): Promise<MeteredPlan> {
  const m = await meteredPlan(db, plan, merchant);
  expect((await payWithCard(db, sandbox, { token: m.token, card: parseCard(cardForm(CARDS.approved))! })).status).toBe('APPROVED');
  return m;
}
