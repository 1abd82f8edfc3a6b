import type { Db } from '@/db/client';
import { listMerchantEmails } from '@/db/queries/emails';
import { ApiError } from '@/lib/api/errors';
import { advanceMerchantTestClock, deleteMerchantTestClock } from '@/lib/billing/test-clock';
import { testClocksAvailable } from '@/lib/clock';
import type { ProcessorSource } from '@/lib/processors';

// Pruebas (docs/portal.md#pruebas): the merchant's test clock and its customers' e-mails, outside production.

export { getMerchantTestClock } from '@/lib/billing/test-clock';

/** Whether this deployment shows the Pruebas pages (the same rule as the API's test clock). */
export const sandboxToolsShown = testClocksAvailable;

/** Bogotá has no daylight saving: a `datetime-local` value there is this offset from UTC. */
const BOGOTA_OFFSET = '-05:00';

export type ClockFormResult = { ok: true; view: Awaited<ReturnType<typeof advanceMerchantTestClock>> } | { ok: false; problem: 'missing' | 'busy' | string };

/** The panel's form: a Bogotá date and time (`2027-01-15T09:30`), moved to through the API's rules. */
export async function advanceFromForm(db: Db, processors: ProcessorSource, merchantId: string, value: string): Promise<ClockFormResult> {
  const local = value.trim();
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(local)) return { ok: false, problem: 'missing' };
  const at = new Date(`${local.length === 16 ? `${local}:00` : local}${BOGOTA_OFFSET}`);
  if (Number.isNaN(at.getTime())) return { ok: false, problem: 'missing' };
  try {
    return { ok: true, view: await advanceMerchantTestClock(db, processors, merchantId, at) };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    return { ok: false, problem: error.code === 'conflict' ? 'busy' : error.message };
  }
}

export async function resetFromForm(db: Db, merchantId: string): Promise<{ ok: boolean }> {
  try {
    await deleteMerchantTestClock(db, merchantId);
    return { ok: true };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'conflict') return { ok: false };
    throw error;
  }
}

/** The links an e-mail carries (manage page, renewal link, receipt), in the order they appear. */
export function linksOf(text: string): string[] {
  // A sentence's full stop or comma after a link is not part of it.
  return [...new Set((text.match(/https?:\/\/[^\s<>"')]+/g) ?? []).map((url) => url.replace(/[.,;:!?]+$/, '')))];
}

/** The merchant's customers' e-mails, newest first. */
export async function loadSandboxEmails(db: Db, merchantId: string, limit = 50) {
  const rows = await listMerchantEmails(db, merchantId, limit);
  return rows.map((e) => ({ ...e, links: linksOf(e.text) }));
}
