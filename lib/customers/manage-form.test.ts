import { describe, expect, it } from 'vitest';
import { POST as cancelRoute } from '@/app/manage/[token]/cancel/route';
import { POST as methodRoute } from '@/app/manage/[token]/method/route';
import { runRenewalSweep } from '@/lib/billing/sweep';
import { payCheckout } from '@/lib/checkout/payments';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { databaseHoldingHandOffs } from '@/test/database';
import { call } from '@/test/http';
import { paidPlan as paidPlanOf } from '@/test/factories';
import { createManageLink } from '@/lib/auth/manage-links';

// The manage page's plain form posts (lib/customers/manage-form.ts): what a browser without
// JavaScript sends, under the page's no-referrer policy (Origin: null), answered with a 303 back to
// the page; a post from another site is a 403 that changes nothing.

const database = databaseHoldingHandOffs();

const sandbox = createSandboxProcessor({ pendingMs: 0 });

async function paidPlan() {
  const link = await paidPlanOf(database.db, { processor: sandbox });
  const manage = await createManageLink(database.db, await link.plan(), { source: 'merchant' });
  return { link, token: new URL(manage.url).pathname.split('/').pop()! };
}

/** What Chromium sends for the page's form under Referrer-Policy: no-referrer. */
const SAME_ORIGIN = { 'content-type': 'application/x-www-form-urlencoded', origin: 'null', 'sec-fetch-site': 'same-origin', host: 'localhost:3000' };

const post = (route: typeof cancelRoute, token: string, fields: Record<string, string>, headers: Record<string, string> = SAME_ORIGIN) =>
  call(route, { method: 'POST', path: `/manage/${token}/x`, headers, params: { token }, body: new URLSearchParams(fields).toString() });

describe('POST /manage/{token}/cancel', () => {
  it('cancels and answers 303 back to the page with what happened, in the page language', async () => {
    const { link, token } = await paidPlan();
    const res = await post(cancelRoute, token, { lang: 'en' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/manage/${token}?done=cancelled&lang=en`);
    expect((await link.plan()).status).toBe('CANCELLED');
  });

  it('cancels a plan never paid without promising an e-mail', async () => {
    const link = await createTestLink(database.db);
    const manage = await createManageLink(database.db, await link.plan(), { source: 'merchant' });
    const token = new URL(manage.url).pathname.split('/').pop()!;
    expect((await post(cancelRoute, token, {})).headers.get('location')).toBe(`/manage/${token}?done=cancelledUnpaid`);
  });

  it('refuses a post from another site with a 403 in the page language, and changes nothing', async () => {
    const { link, token } = await paidPlan();
    for (const headers of [
      { ...SAME_ORIGIN, 'sec-fetch-site': 'cross-site' },
      { ...SAME_ORIGIN, 'sec-fetch-site': 'same-site' },
      { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example', host: 'localhost:3000' },
    ]) {
      const res = await post(cancelRoute, token, { lang: 'es' }, headers);
      expect(res.status).toBe(403);
      expect(res.text).toContain('No se hizo ningún cambio');
    }
    expect((await link.plan()).status).toBe('ACTIVE');
  });

  it('a second cancel says the plan can no longer change; a malformed token goes to the page (its 404); an unreadable body changes nothing', async () => {
    const { link, token } = await paidPlan();
    await post(cancelRoute, token, {});
    expect((await post(cancelRoute, token, {})).headers.get('location')).toBe(`/manage/${token}?problem=conflict`);
    expect((await post(cancelRoute, `mng_${'A'.repeat(40)}`, {})).headers.get('location')).toBe(`/manage/mng_${'A'.repeat(40)}?problem=invalid`);
    const bad = await post(cancelRoute, 'not a token', {});
    expect(bad.status).toBe(303);
    expect(bad.headers.get('location')).toBe('/manage/not%20a%20token');

    const other = await paidPlan();
    const json = await call(cancelRoute, { method: 'POST', headers: { ...SAME_ORIGIN, 'content-type': 'application/json' }, params: { token: other.token }, body: {} });
    expect(json.headers.get('location')).toBe(`/manage/${other.token}?problem=form`);
    expect((await other.link.plan()).status).toBe('ACTIVE');
    expect((await link.plan()).status).toBe('CANCELLED');
  });
});

describe('POST /manage/{token}/method', () => {
  const cardFields = (n: string) => ({ method: 'CARD', ...cardForm(n) });

  it('saves a card the sandbox accepts, and says so', async () => {
    const { link, token } = await paidPlan();
    const before = (await link.plan()).paymentMethodToken;
    const res = await post(methodRoute, token, cardFields(CARDS.approved));
    expect(res.headers.get('location')).toBe(`/manage/${token}?done=method`);
    expect((await link.plan()).paymentMethodToken).not.toBe(before);
  });

  it('says the pending renewal goes to the new method while a renewal link is open (docs/billing.md#a-new-method-while-a-link-is-open)', async () => {
    const link = await createTestLink(database.db);
    const pse = { type: 'PSE', userType: 'PERSON', legalIdType: 'CC', legalId: '1020304050', institutionCode: '1', fullName: 'Ana Gómez', phoneNumber: '3001234567' } as const;
    expect((await payCheckout(database.db, sandbox, { token: link.token, payment: { instrument: pse } })).status).toBe('APPROVED');
    const due = (await link.plan()).nextChargeDate!;
    // The sweep e-mails the period's link reminderDays (3) before the due date.
    await runRenewalSweep(database.db, sandbox, { now: new Date(due.getTime() - 2 * 86_400_000) });
    const token = new URL((await createManageLink(database.db, await link.plan(), { source: 'renewal_due' })).url).pathname.split('/').pop()!;
    const res = await post(methodRoute, token, cardFields(CARDS.approved));
    expect(res.headers.get('location')).toBe(`/manage/${token}?done=methodWithRenewal`);
    expect(await link.plan()).toMatchObject({ renewalCollection: 'AUTOMATIC', nextChargeDate: due });
  });

  it('comes back with the problem, never a card value, for a declined, malformed or missing method', async () => {
    const cases: [Record<string, string>, string][] = [
      [cardFields(CARDS.declined), 'declined'],
      [cardFields('4242 4242 4242 4241'), 'card'],
      [{ method: 'CARD' }, 'card'],
      [{ method: 'NEQUI', phoneNumber: '300' }, 'nequi'],
      [{ method: 'CARD', cardToken: 'tok_x', acceptanceToken: '' }, 'card'],
    ];
    // A link and an address of its own for each: the replacement limits are not what is tested here.
    for (const [i, [fields, problem]] of cases.entries()) {
      const { link, token } = await paidPlan();
      const before = (await link.plan()).paymentMethodToken;
      const res = await post(methodRoute, token, fields, { ...SAME_ORIGIN, 'x-forwarded-for': `10.31.${process.pid % 250}.${i + 1}` });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`/manage/${token}?problem=${problem}`);
      expect((await link.plan()).paymentMethodToken).toBe(before);
    }
    const { link, token } = await paidPlan();
    const before = (await link.plan()).paymentMethodToken;
    expect((await post(methodRoute, token, cardFields(CARDS.approved), { ...SAME_ORIGIN, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await link.plan()).paymentMethodToken).toBe(before);
  });

  it('refuses a fourth replacement of one link within a minute, and changes nothing', async () => {
    const { link, token } = await paidPlan();
    const from = { ...SAME_ORIGIN, 'x-forwarded-for': `10.32.${process.pid % 250}.1` };
    for (let i = 0; i < 3; i++) expect((await post(methodRoute, token, cardFields(CARDS.declined), from)).headers.get('location')).toBe(`/manage/${token}?problem=declined`);
    const before = (await link.plan()).paymentMethodToken;
    const res = await post(methodRoute, token, cardFields(CARDS.approved), from);
    expect(res.headers.get('location')).toBe(`/manage/${token}?problem=too_many`);
    expect((await link.plan()).paymentMethodToken).toBe(before);
  });
});
