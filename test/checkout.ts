import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { subscriptionPlans } from '@/db/schema';
import type { PaymentInstrument, PaymentProcessor } from '@/lib/processors/processor';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { createPaymentLink } from '@/lib/plans/create-link';
import { createLinkBodySchema } from '@/lib/plans/schemas';
import { createTestMerchant, linkBody, type TestMerchant } from './merchants';

/** One payment link of `merchant` (a fresh one by default). */
export async function createTestLink(db: Db, plan: Record<string, unknown> = {}, merchant?: TestMerchant) {
  merchant ??= await createTestMerchant(db);
  const body = createLinkBodySchema.parse(linkBody({ plan }));
  const link = await db.transaction((tx) => createPaymentLink(tx, merchant.merchantId, body));
  return {
    merchant,
    ...link,
    expire: () => db.update(subscriptionPlans).set({ tokenExpiresAt: new Date(Date.now() - 1000) }).where(eq(subscriptionPlans.id, link.subscriptionPlanId)),
    plan: async () => (await db.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, link.subscriptionPlanId)))[0]!,
  };
}

/** The sandbox's cards, defined once in lib/processors/sandbox.ts. */
export { SANDBOX_CARDS as CARDS } from '@/lib/processors/sandbox';

export const cardForm = (cardNumber: string, overrides: Record<string, string> = {}) => ({
  cardNumber,
  cardExpiry: '12/30',
  cardCvc: '123',
  cardHolder: 'Ana Gómez',
  ...overrides,
});

/**
 * The real sandbox, counting the charges that reach it (a customer's payment or a renewal). `now`
 * decides when a PENDING payment settles: a test where that moment matters passes its own clock.
 */
export function countingSandbox(pendingMs = 3000, now: () => number = Date.now) {
  const sandbox = createSandboxProcessor({ pendingMs, now });
  const calls = { charge: 0 };
  const processor: PaymentProcessor = {
    ...sandbox,
    pay: (request) => {
      calls.charge += 1;
      return sandbox.pay(request);
    },
    charge: (request) => {
      calls.charge += 1;
      return sandbox.charge(request);
    },
  };
  return { processor, calls };
}

/** A PSE payment that the sandbox's bank approves. */
export const PSE_APPROVES = {
  type: 'PSE',
  userType: 'PERSON',
  legalIdType: 'CC',
  legalId: '1020304050',
  institutionCode: '1',
  fullName: 'Ana Gómez',
  phoneNumber: '3001234567',
} as const satisfies PaymentInstrument;
