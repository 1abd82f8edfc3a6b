import { beforeAll, describe, expect, it } from 'vitest';
import { PATCH as updateMerchant } from '@/app/admin/merchants/[id]/route';
import { POST as createMerchant } from '@/app/admin/merchants/route';
import { POST as payLink } from '@/app/checkout/session/[token]/payments/route';
import { POST as createLink } from '@/app/merchants/subscription-link/route';
import { POST as cancelPlan } from '@/app/merchants/subscription-plans/[id]/cancel/route';
import { GET as listEvents } from '@/app/merchants/webhook-events/route';
import { cardForm, CARDS, createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { adminHeaders, call } from '@/test/http';
import { createTestMerchant, linkBody } from '@/test/merchants';

// PostgreSQL cannot store U+0000 in text: every validated input refuses it with a 400 that names
// the field (lib/api/body.ts), before anything reaches the database.

const NUL = 'a\u0000b';

beforeAll(async () => {
  await useTestDatabase();
});

function expectNamed(res: { status: number; json: { error: { code: string; details: { path: string }[] } } }, path: string) {
  expect(res.status).toBe(400);
  expect(res.json.error.code).toBe('invalid_request');
  expect(res.json.error.details).toEqual([{ path, message: expect.stringContaining('NUL') }]);
}

describe('a NUL character in a text field', () => {
  it.each([
    ['customer.firstName', { customer: { firstName: NUL } }],
    ['plan.externalReference', { plan: { externalReference: NUL } }],
    ['plan.description', { plan: { description: NUL } }],
  ])('link creation: 400 naming %s', async (path, overrides) => {
    const m = await createTestMerchant((await useTestDatabase()).db);
    expectNamed(await call(createLink, { headers: m.headers, body: linkBody(overrides) }), path);
  });

  it('operator API: 400 naming name and webhookUrl', async () => {
    expectNamed(await call(createMerchant, { headers: adminHeaders(), body: { name: NUL } }), 'name');
    const created = (await call(createMerchant, { headers: adminHeaders(), body: { name: 'Acme' } })).json;
    const res = await call(updateMerchant, { method: 'PATCH', headers: adminHeaders(), params: { id: created.merchantId }, body: { webhookUrl: `https://x.example/${NUL}` } });
    expectNamed(res, 'webhookUrl');
  });

  it('cancel: 400 naming reason', async () => {
    const link = await createTestLink((await useTestDatabase()).db);
    const res = await call(cancelPlan, { method: 'POST', headers: link.merchant.headers, params: { id: link.subscriptionPlanId }, body: { reason: NUL } });
    expectNamed(res, 'reason');
  });

  it('checkout payment: 400 naming cardHolder', async () => {
    const link = await createTestLink((await useTestDatabase()).db);
    const res = await call(payLink, { params: { token: link.token }, body: cardForm(CARDS.approved, { cardHolder: NUL }), headers: { 'x-forwarded-for': '192.0.2.77' } });
    expectNamed(res, 'cardHolder');
  });

  it('a query string: 400 naming the parameter', async () => {
    const m = await createTestMerchant((await useTestDatabase()).db);
    expectNamed(await call(listEvents, { headers: m.headers, path: '/merchants/webhook-events?subscriptionPlanId=%00' }), 'subscriptionPlanId');
  });

  it('a key holding NUL: 400 naming where it sits', async () => {
    const m = await createTestMerchant((await useTestDatabase()).db);
    expectNamed(await call(createLink, { headers: m.headers, body: { ...linkBody(), customer: { [NUL]: 1 } } }), 'customer');
  });
});
