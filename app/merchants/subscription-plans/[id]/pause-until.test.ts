import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { merchants, transactions, webhookEvents } from '@/db/schema';
import { runRenewalSweep } from '@/lib/billing/sweep';
import { nextOnAnchor } from '@/lib/calendar/calendar';
import { payWithCard } from '@/lib/checkout/payments';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { DAY_MS } from '@/test/clock';
import { useTestDatabase } from '@/test/database';
import { call } from '@/test/http';
import { postToPlan } from '@/test/plans';
import { expectRefusedUnchanged } from '@/test/refusals';
import { POST as pause } from './pause/route';
import { POST as resume } from './resume/route';
import { GET } from './route';

// Pause until a date (docs/billing.md#pause-until-a-date): the sweep resumes the plan on its own
// then, on its schedule; nothing is charged for the paused time.

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

const sandbox = createSandboxProcessor({ pendingMs: 0 });

async function paid() {
  const link = await createTestLink(database.db);
  await database.db.update(merchants).set({ webhookEventTypes: ['subscription.charge.approved', 'subscription.paused', 'subscription.resumed'] }).where(eq(merchants.id, link.merchant.merchantId));
  expect((await payWithCard(database.db, sandbox, { token: link.token, card: parseCard(cardForm(CARDS.approved))! })).status).toBe('APPROVED');
  return link;
}

describe('POST …/pause { resumesAt }', () => {
  it('pauses until the date, then the sweep resumes the plan on its schedule, with its event', async () => {
    const link = await paid();
    const before = await link.plan();
    const resumesAt = new Date(Date.now() + 40 * DAY_MS);
    const res = await postToPlan(pause, link, { resumesAt: resumesAt.toISOString() });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 'PAUSED', nextChargeDate: null, resumesAt: resumesAt.toISOString() });

    // Past the paused period's due date nothing is charged; the day before resuming nothing moves.
    await runRenewalSweep(database.db, sandbox, { now: new Date(resumesAt.getTime() - 1000) });
    expect((await link.plan()).status).toBe('PAUSED');
    const at = new Date(resumesAt.getTime() + 1000);
    await runRenewalSweep(database.db, sandbox, { now: at });
    const after = await link.plan();
    expect(after).toMatchObject({ status: 'ACTIVE', resumesAt: null, nextChargeDate: nextOnAnchor(at, before.billingAnchorDay!) });
    expect((await database.db.select().from(transactions).where(eq(transactions.planId, link.subscriptionPlanId))).map((t) => t.kind)).toEqual(['INITIAL']);
    const events = await database.db.select().from(webhookEvents).where(eq(webhookEvents.planId, link.subscriptionPlanId));
    expect(events.map((e) => e.type).sort()).toEqual(['subscription.charge.approved', 'subscription.paused', 'subscription.resumed']);
    expect((await call(GET, { headers: link.merchant.headers, params: { id: link.subscriptionPlanId } })).json).not.toHaveProperty('resumesAt');
  });

  it('takes a date alone as the start of that day in Bogotá; resumed by hand first, the date is forgotten', async () => {
    const link = await paid();
    const day = new Date(Date.now() + 10 * DAY_MS).toISOString().slice(0, 10);
    expect((await postToPlan(pause, link, { resumesAt: day })).json.resumesAt).toBe(new Date(`${day}T05:00:00.000Z`).toISOString());
    await call(resume, { method: 'POST', headers: link.merchant.headers, params: { id: link.subscriptionPlanId } });
    expect(await link.plan()).toMatchObject({ status: 'ACTIVE', resumesAt: null });
  });

  it('is ignored, and not shown, for a merchant on an older version', async () => {
    const link = await paid();
    const old = { 'ServicePay-Version': '2026-11-26' };
    const res = await postToPlan(pause, link, { resumesAt: new Date(Date.now() + 5 * DAY_MS).toISOString() }, old);
    expect(res.json).toMatchObject({ status: 'PAUSED' });
    expect(res.json).not.toHaveProperty('resumesAt');
    expect((await link.plan()).resumesAt).toBeNull();
  });
});

describe('bad input: a 400 naming resumesAt, and nothing changes', () => {
  it.each([
    [{ resumesAt: 'next week' }],
    [{ resumesAt: 1798761600000 }],
    [{ resumesAt: new Date(Date.now() - DAY_MS).toISOString() }],
    [{ resumesAt: new Date(Date.now() + 400 * DAY_MS).toISOString() }],
  ])('%j', async (body) => {
    const link = await paid();
    await expectRefusedUnchanged(link, () => postToPlan(pause, link, body), 'resumesAt');
  });

  it('is a 409 for a plan that is not ACTIVE', async () => {
    const link = await paid();
    await postToPlan(pause, link);
    const res = await postToPlan(pause, link, { resumesAt: new Date(Date.now() + 5 * DAY_MS).toISOString() });
    expect(res.status).toBe(409);
    expect((await link.plan()).resumesAt).toBeNull();
  });
});
