// The time a merchant's plans live at (docs/billing.md#test-clocks): its test clock where one is
// set, real time otherwise. Outside a sweep (which is handed its `now`) everything reads `merchantNow`.
import type { Db } from '@/db/client';
import { testClockTime } from '@/db/queries/test-clocks';
import { env } from '@/lib/env';

/** Whether this deployment has test clocks: anywhere but production, or a sandbox deployment. */
export function testClocksAvailable(): boolean {
  return env().NODE_ENV !== 'production' || env().SANDBOX_DEPLOYMENT;
}

/** Now for this merchant: its test clock's time or `realNow` (always real in production). */
export async function merchantNow(db: Db, merchantId: string, realNow: Date = new Date()): Promise<Date> {
  if (!testClocksAvailable()) return realNow;
  return (await testClockTime(db, merchantId)) ?? realNow;
}
