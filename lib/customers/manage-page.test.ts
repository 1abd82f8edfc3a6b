import { describe, expect, it, vi } from 'vitest';
import { resetEnvForTests } from '@/lib/env';
import { manageLinkUse } from '@/db/queries/manage-links';
import { payCheckout, payWithCard } from '@/lib/checkout/payments';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { databaseHoldingHandOffs } from '@/test/database';
import { createManageLink } from '@/lib/auth/manage-links';
import { loadManagePage, trialOf } from './manage-page';
import { restoreEnvAfterEach } from '@/test/env';

// What the manage page loads for a token (docs/customers.md#the-manage-page).

const database = databaseHoldingHandOffs();

const sandbox = createSandboxProcessor({ pendingMs: 0 });
const plain = { chosenLang: null, confirmCancel: false };

async function managed(plan: Record<string, unknown> = {}, pay = true) {
  const link = await createTestLink(database.db, plan);
  if (pay) await payWithCard(database.db, sandbox, { token: link.token, card: parseCard(cardForm(CARDS.approved))! });
  const manage = await createManageLink(database.db, await link.plan(), { source: 'merchant' });
  return { link, token: new URL(manage.url).pathname.split('/').pop()! };
}

restoreEnvAfterEach();

describe('loadManagePage', () => {
  it('finds nothing for an unknown or forged token, and records nothing', async () => {
    const { link, token } = await managed();
    expect(await loadManagePage(database.db, `mng_${'x'.repeat(40)}`, plain)).toBeNull();
    expect(await loadManagePage(database.db, `${token.slice(0, -1)}!`, plain)).toBeNull();
    expect((await manageLinkUse(database.db, link.subscriptionPlanId)).uses).toBe(0);
  });

  it('loads an active subscription with its charge, and may replace its method or cancel it', async () => {
    const { link, token } = await managed();
    const page = (await loadManagePage(database.db, token, plain))!;
    expect(page.plan.id).toBe(link.subscriptionPlanId);
    expect(page.plan.status).toBe('ACTIVE');
    expect(page.charges.map((c) => c.status)).toEqual(['APPROVED']);
    expect(page.nextCharge).toEqual(expect.any(Number));
    expect({ changeable: page.changeable, cancellable: page.cancellable, confirming: page.confirming, monthly: page.monthly }).toEqual({
      changeable: true,
      cancellable: true,
      confirming: false,
      monthly: true,
    });
    // A sandbox merchant: the page offers its plain forms, no Wompi settings.
    expect(page.processorType).toBe('sandbox');
    expect(page.wompi).toBeNull();
    expect((await loadManagePage(database.db, token, { ...plain, confirmCancel: true }))!.confirming).toBe(true);
  });

  it('offers the sandbox\'s plain card form, which posts the number to us, outside production only', async () => {
    const { token } = await managed();
    expect((await loadManagePage(database.db, token, plain))!.sandboxForms).toBe(true);
    vi.stubEnv('NODE_ENV', 'production');
    vi.stubEnv('SANDBOX_DEPLOYMENT', '1');
    vi.stubEnv('BETTER_AUTH_SECRET', 'manage-page-test-secret-0123456789abcdef');
    resetEnvForTests();
    expect((await loadManagePage(database.db, token, plain))!.sandboxForms).toBe(true);
    vi.stubEnv('SANDBOX_DEPLOYMENT', '');
    vi.stubEnv('SECRETS_ENCRYPTION_KEY', 'ab'.repeat(32));
    resetEnvForTests();
    const production = (await loadManagePage(database.db, token, plain))!;
    expect({ changeable: production.changeable, sandboxForms: production.sandboxForms, wompi: production.wompi }).toEqual({ changeable: true, sandboxForms: false, wompi: null });
  });

  it('counts every opening of the link', async () => {
    const { link, token } = await managed();
    await loadManagePage(database.db, token, plain);
    await loadManagePage(database.db, token, plain);
    expect((await manageLinkUse(database.db, link.subscriptionPlanId)).uses).toBe(2);
  });

  it('keeps a language the customer chose for the e-mails, and none otherwise', async () => {
    const { link, token } = await managed();
    await loadManagePage(database.db, token, plain);
    expect((await link.plan()).customerLang).toBe('es');
    await loadManagePage(database.db, token, { ...plain, chosenLang: 'en' });
    expect((await link.plan()).customerLang).toBe('en');
  });

  it('offers no method change for a one-time payment, and no cancel once it is done', async () => {
    const { token } = await managed({ modality: 'SINGLE' });
    const page = (await loadManagePage(database.db, token, { ...plain, confirmCancel: true }))!;
    expect(page.plan.status).toBe('COMPLETED');
    expect(page.interval).toBeNull();
    expect({ changeable: page.changeable, cancellable: page.cancellable, confirming: page.confirming, monthly: page.monthly }).toEqual({
      changeable: false,
      cancellable: false,
      confirming: false,
      monthly: false,
    });
  });

  it('tells a free trial: its days and end, the first charge then, and the trial may be cancelled or its method replaced', async () => {
    const link = await createTestLink(database.db, { trialDays: 14, amount: 2_990_000 });
    const started = await payCheckout(database.db, sandbox, { token: link.token, payment: { instrument: { type: 'CARD', card: parseCard(cardForm(CARDS.approved))! } }, lang: 'es' });
    expect(started.status).toBe('TRIALING');
    const plan = await link.plan();
    const manage = await createManageLink(database.db, plan, { source: 'merchant' });
    const page = (await loadManagePage(database.db, new URL(manage.url).pathname.split('/').pop()!, plain))!;
    expect(page.plan.status).toBe('TRIALING');
    expect(page.trial).toEqual({ days: 14, endsAt: plan.trialEndsAt!.getTime(), firstCharge: { amount: 2_990_000, discount: 0 } });
    expect(page.nextCharge).toBe(plan.trialEndsAt!.getTime());
    expect(page.charges).toEqual([]);
    expect({ changeable: page.changeable, cancellable: page.cancellable }).toEqual({ changeable: true, cancellable: true });
  });

  it("tells the trial's first charge as the trial's end charges it: the price scheduled from then, less the coupon", async () => {
    const link = await createTestLink(database.db, { trialDays: 7, amount: 2_990_000 });
    await payCheckout(database.db, sandbox, { token: link.token, payment: { instrument: { type: 'CARD', card: parseCard(cardForm(CARDS.approved))! } }, lang: 'es' });
    const plan = await link.plan();
    const end = plan.trialEndsAt!;
    expect(trialOf({ ...plan, discountPercent: 20, discountPeriods: 3, discountPeriodsUsed: 0 })!.firstCharge).toEqual({ amount: 2_392_000, discount: 598_000 });
    // A price change from the trial's end is the first charge's price; one from later is not.
    expect(trialOf({ ...plan, scheduledAmount: 3_500_000, scheduledFrom: end })!.firstCharge).toEqual({ amount: 3_500_000, discount: 0 });
    expect(trialOf({ ...plan, scheduledAmount: 3_500_000, scheduledFrom: new Date(end.getTime() + 1) })!.firstCharge).toEqual({ amount: 2_990_000, discount: 0 });
    // A coupon whose periods are used takes nothing off; a plan past its trial has none to tell.
    expect(trialOf({ ...plan, discountPercent: 20, discountPeriods: 1, discountPeriodsUsed: 1 })!.firstCharge.discount).toBe(0);
    expect(trialOf({ ...plan, status: 'ACTIVE' })).toBeNull();
  });
});
