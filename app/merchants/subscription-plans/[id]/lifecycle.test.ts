import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { subscriptionPlans, transactions } from '@/db/schema';
import { nextOnAnchor } from '@/lib/calendar/calendar';
import { runRenewalSweep } from '@/lib/billing/sweep';
import { payWithCard } from '@/lib/checkout/payments';
import { createId } from '@/lib/ids';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { call } from '@/test/http';
import { createTestMerchant } from '@/test/merchants';
import { POST as cancel } from './cancel/route';
import { POST as pause } from './pause/route';
import { POST as resume } from './resume/route';

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

const sandbox = createSandboxProcessor({ pendingMs: 0 });

/** A link of a fresh merchant; `paid` pays it with the approved card (ACTIVE). */
async function plan({ paid = true } = {}) {
  const link = await createTestLink(database.db);
  if (paid) await payWithCard(database.db, sandbox, { token: link.token, card: parseCard(cardForm(CARDS.approved))! });
  return link;
}
type Link = Awaited<ReturnType<typeof plan>>;
const send = (route: typeof pause | typeof resume | typeof cancel, link: Pick<Link, 'merchant' | 'subscriptionPlanId'>, body?: unknown) =>
  call(route, { method: 'POST', headers: link.merchant.headers, params: { id: link.subscriptionPlanId }, body });

describe('pause, resume and cancel', () => {
  it('pauses an ACTIVE plan with no body, answering the plan record with no next charge', async () => {
    const link = await plan();
    const res = await send(pause, link);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ id: link.subscriptionPlanId, status: 'PAUSED', nextChargeDate: null, modality: 'RECURRING' });
    expect(res.headers.get('ratelimit-limit')).toBe('60');
    expect((await link.plan()).status).toBe('PAUSED');
  });

  it('accepts {} as the body too', async () => {
    const link = await plan();
    expect((await send(pause, link, {})).status).toBe(200);
    expect((await send(resume, link, {})).status).toBe(200);
  });

  it('resumes on the next anchor day from now, never charging for the paused months', async () => {
    const link = await plan();
    const before = await link.plan();
    await send(pause, link);
    const now = Date.now();
    const res = await send(resume, link);
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('ACTIVE');
    const expected = nextOnAnchor(new Date(now), before.billingAnchorDay!).getTime();
    expect(Math.abs(res.json.nextChargeDate - expected)).toBeLessThan(5_000);
    expect(res.json.nextChargeDate).toBeGreaterThan(now);
    expect((await link.plan()).renewalFailures).toBe(0);
  });

  it('a paused plan is not renewed; after resume the sweep charges it on the new date only', async () => {
    const link = await plan();
    await send(pause, link);
    const due = (await link.plan()).nextChargeDate!;
    const renewals = () =>
      database.db.select().from(transactions).where(and(eq(transactions.planId, link.subscriptionPlanId), eq(transactions.kind, 'RENEWAL')));
    await runRenewalSweep(database.db, sandbox, { now: new Date(due.getTime() + 1000) });
    expect(await renewals()).toEqual([]);
    const next = new Date((await send(resume, link)).json.nextChargeDate);
    await runRenewalSweep(database.db, sandbox, { now: new Date(next.getTime() - 1000) });
    expect(await renewals()).toEqual([]);
    await runRenewalSweep(database.db, sandbox, { now: new Date(next.getTime() + 1000) });
    expect((await renewals()).map((t) => t.status)).toEqual(['APPROVED']);
  });

  it('cancels with a reason, or with the default one when the body is empty', async () => {
    const active = await plan();
    const res = await send(cancel, active, { reason: '  Customer asked to cancel ' });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: 'CANCELLED', nextChargeDate: null });
    expect((await active.plan()).cancelReason).toBe('Customer asked to cancel');

    const pending = await plan({ paid: false });
    expect((await send(cancel, pending)).json.status).toBe('CANCELLED');
    expect((await pending.plan()).cancelReason).toBe('Cancelled by the merchant');
  });

  it('cancels a PAUSED plan', async () => {
    const link = await plan();
    await send(pause, link);
    expect((await send(cancel, link)).json.status).toBe('CANCELLED');
  });

  it.each([
    ['pause of a CANCELLED plan', 'CANCELLED', pause],
    ['pause of a PENDING_ACTIVATION plan', 'PENDING_ACTIVATION', pause],
    ['pause of a PAUSED plan', 'PAUSED', pause],
    ['resume of an ACTIVE plan', 'ACTIVE', resume],
    ['resume of a CANCELLED plan', 'CANCELLED', resume],
    ['cancel of a CANCELLED plan', 'CANCELLED', cancel],
    ['cancel of a COMPLETED plan', 'COMPLETED', cancel],
  ] as const)('refuses %s with 409 and changes nothing', async (_label, status, route) => {
    const link = await plan();
    await database.db.update(subscriptionPlans).set({ status }).where(eq(subscriptionPlans.id, link.subscriptionPlanId));
    const before = await link.plan();
    const res = await send(route, link);
    expect(res.status).toBe(409);
    expect(res.json.error).toMatchObject({ code: 'conflict', message: expect.stringContaining(status) });
    expect(await link.plan()).toEqual(before);
  });

  it.each([pause, resume, cancel])('answers 404 for a malformed or unknown id and 403 for another merchant\'s plan', async (route) => {
    const link = await plan();
    const other = await createTestMerchant(database.db);
    const as = (id: string, headers: Record<string, string> = link.merchant.headers) => call(route, { method: 'POST', headers, params: { id } });
    expect((await as('not-an-id')).status).toBe(404);
    expect((await as(createId('sub'))).status).toBe(404);
    const forbidden = await as(link.subscriptionPlanId, other.headers);
    expect(forbidden.status).toBe(403);
    expect(forbidden.json.error.code).toBe('forbidden');
    expect((await as(link.subscriptionPlanId, {})).status).toBe(401);
  });

  it('refuses a bad cancel body', async () => {
    const link = await plan();
    expect((await send(cancel, link, { reason: '' })).status).toBe(400);
    expect((await send(cancel, link, { reason: 42 })).status).toBe(400);
    expect((await send(cancel, link, '[1]')).status).toBe(400);
    expect((await link.plan()).status).toBe('ACTIVE');
  });
});
