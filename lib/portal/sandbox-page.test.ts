import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { subscriptionPlans } from '@/db/schema';
import { payWithCard } from '@/lib/checkout/payments';
import { merchantProcessors } from '@/lib/processors';
import { parseCard } from '@/lib/processors/card';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { DAY_MS } from '@/test/clock';
import { useTestDatabase } from '@/test/database';
import { advanceFromForm, getMerchantTestClock, linksOf, loadSandboxEmails, resetFromForm } from './sandbox-page';

// Pruebas (docs/portal.md#pruebas): the clock panel's form through the API's rules, and the
// e-mail log of one merchant only, with the links its e-mails carry.

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

async function paidLink() {
  const link = await createTestLink(database.db);
  await payWithCard(database.db, merchantProcessors(database.db), { token: link.token, card: parseCard(cardForm(CARDS.approved))! });
  return link;
}

/** A Bogotá `datetime-local` value for `date` (UTC-5, no daylight saving). */
const bogotaLocal = (date: Date) => new Date(date.getTime() - 5 * 3_600_000).toISOString().slice(0, 19);

describe('the clock panel', () => {
  it('moves the clock to a Bogotá date and time, and says why it refuses one', async () => {
    const link = await paidLink();
    const merchantId = link.merchant.merchantId;
    const due = (await link.plan()).nextChargeDate!;
    const to = new Date(Math.ceil((due.getTime() + 60_000) / 1000) * 1000);
    const moved = await advanceFromForm(database.db, merchantProcessors(database.db), merchantId, bogotaLocal(to));
    expect(moved).toMatchObject({ ok: true, view: { status: 'ready', frozenTime: to.toISOString(), lastAdvance: { approved: 1 } } });
    expect((await getMerchantTestClock(database.db, merchantId)).lastAdvance!.plans.map((p) => p.subscriptionPlanId)).toEqual([link.subscriptionPlanId]);

    expect(await advanceFromForm(database.db, merchantProcessors(database.db), merchantId, '')).toEqual({ ok: false, problem: 'missing' });
    expect(await advanceFromForm(database.db, merchantProcessors(database.db), merchantId, 'mañana')).toEqual({ ok: false, problem: 'missing' });
    const back = await advanceFromForm(database.db, merchantProcessors(database.db), merchantId, bogotaLocal(new Date(to.getTime() - DAY_MS)));
    expect(back).toMatchObject({ ok: false, problem: expect.stringContaining('moves only forward') });

    expect(await resetFromForm(database.db, merchantId)).toEqual({ ok: true });
    expect((await getMerchantTestClock(database.db, merchantId)).status).toBe('real_time');
  });
});

describe('the e-mail log', () => {
  it("shows a merchant its customers' e-mails only, with their links", async () => {
    const mine = await paidLink();
    const theirs = await paidLink();
    const log = await loadSandboxEmails(database.db, mine.merchant.merchantId);
    expect(log.length).toBeGreaterThan(0);
    expect(new Set(log.map((e) => e.merchantId))).toEqual(new Set([mine.merchant.merchantId]));
    expect(log.map((e) => e.planId)).not.toContain(theirs.subscriptionPlanId);
    const receipt = log.find((e) => e.kind === 'receipt')!;
    expect(receipt.links.some((url) => url.includes('/manage/'))).toBe(true);
    await database.db.update(subscriptionPlans).set({ status: 'CANCELLED' }).where(eq(subscriptionPlans.id, mine.subscriptionPlanId));
  });

  it('finds every link of a text once, in order, without the punctuation around it', () => {
    expect(linksOf('Pague aquí: https://pay.example.co/pay/abc123. Gestione (https://pay.example.co/manage/x) o https://pay.example.co/pay/abc123')).toEqual([
      'https://pay.example.co/pay/abc123',
      'https://pay.example.co/manage/x',
    ]);
  });
});
