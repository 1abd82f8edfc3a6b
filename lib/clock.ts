// The time a merchant's plans live at (docs/billing.md#test-clocks): its test clock where one is
// set (development and sandbox deployments only), real time otherwise. Everything that dates a
// record of a merchant's plan outside a sweep (a payment on the hosted page, a plan created, a
// price change, usage, an invoice) reads `merchantNow`; a sweep is handed its `now`.
import type { Db } from '@/db/client';
import { testClockTime } from '@/db/queries/test-clocks';
import { env } from '@/lib/env';

/** Whether this deployment has test clocks: anywhere but production, or a sandbox deployment. */
export function testClocksAvailable(): boolean {
  return env().NODE_ENV !== 'production' || env().SANDBOX_DEPLOYMENT;
}

/**
 * Now for this merchant: its test clock's time (frozen where it was last moved) or `realNow`. In
 * production without SANDBOX_DEPLOYMENT it reads nothing and is real time.
 */
export async function merchantNow(db: Db, merchantId: string, realNow: Date = new Date()): Promise<Date> {
  if (!testClocksAvailable()) return realNow;
  return (await testClockTime(db, merchantId)) ?? realNow;
}
