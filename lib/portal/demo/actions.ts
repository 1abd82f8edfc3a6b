'use server';

// The /demo page's backend: what a merchant's server does, on the server, as the demo merchant
// (lib/portal/demo-shop.ts). No credential ever reaches the browser.
import { headers } from 'next/headers';
import { ApiError } from '@/lib/api/errors';
import { clientIp } from '@/lib/api/with-checkout';
import { createDemoLink, type DemoResult, type DemoSnapshot, demoSnapshot } from '@/lib/portal/demo-shop';
import type { PaymentLink } from '@/lib/plans/schemas';

async function attempt<T>(work: () => Promise<T>): Promise<DemoResult<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    // Our own refusals are shown on the page; anything else is a 500 (logged, no details).
    if (error instanceof ApiError) return { ok: false, error: error.message };
    throw error;
  }
}

export async function createDemoLinkAction(): Promise<DemoResult<PaymentLink>> {
  return attempt(async () => createDemoLink(clientIp({ headers: await headers() })));
}

export async function demoSnapshotAction(planId: string): Promise<DemoResult<DemoSnapshot>> {
  return attempt(() => demoSnapshot(planId));
}
