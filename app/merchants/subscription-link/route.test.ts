import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { apiKeys, customers, subscriptionPlans } from '@/db/schema';
import { pinClockInMinute } from '@/test/clock';
import { useTestDatabase } from '@/test/database';
import { call } from '@/test/http';
import { createTestMerchant, linkBody, type TestMerchant } from '@/test/merchants';
import { saveProcessor } from '@/lib/portal/processor-page';
import { testWompiKeys } from '@/test/wompi-double';
import { POST } from './route';

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

const create = (m: { headers: Record<string, string> }, body: unknown, headers: Record<string, string> = {}) =>
  call(POST, { path: '/merchants/subscription-link', headers: { ...m.headers, ...headers }, body });
const plansOf = (merchantId: string) =>
  database.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.merchantId, merchantId));

describe('POST /merchants/subscription-link', () => {
  it('creates the plan, customer and token, and answers docs/api.md#create-a-payment-link', async () => {
    const m = await createTestMerchant(database.db);
    const before = Date.now();
    const res = await create(m, linkBody({ plan: { externalReference: 'order-1', amount: 150000 } }));
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(['expiresAt', 'subscriptionPlanId', 'token', 'url']);
    expect(res.json.token).toMatch(/^[A-Za-z0-9]{10}$/);
    expect(res.json.url).toBe(`${process.env.APP_URL}/pay/${res.json.token}`);
    expect(res.json.subscriptionPlanId).toMatch(/^sub_[0-9A-Za-z]{24}$/);
    expect(res.json.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const ttl = Date.parse(res.json.expiresAt) - before;
    expect(ttl).toBeGreaterThanOrEqual(86_400_000 - 5_000);
    expect(ttl).toBeLessThanOrEqual(86_400_000 + 5_000);
    expect(res.headers.get('ratelimit-limit')).toBe('60');
    expect(res.headers.get('ratelimit-remaining')).toBe('59');

    const [plan] = await plansOf(m.merchantId);
    expect(plan).toMatchObject({
      id: res.json.subscriptionPlanId,
      status: 'PENDING_ACTIVATION',
      modality: 'RECURRING',
      intervalUnit: 'month',
      intervalCount: 1,
      amount: 150000,
      currency: 'COP',
      checkoutToken: res.json.token,
      externalReference: 'order-1',
    });
  });

  it('keeps one customer per merchant and e-mail, whatever its case', async () => {
    const m = await createTestMerchant(database.db);
    await create(m, linkBody({ customer: { email: 'Luis@Example.com', phone: '+573001111111' } }));
    await create(m, linkBody({ customer: { email: 'luis@example.com', phone: '+573002222222' } }));
    const rows = await database.db.select().from(customers).where(eq(customers.merchantId, m.merchantId));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.phone).toBe('+573002222222');
  });

  it('creates a SINGLE plan with no interval', async () => {
    const m = await createTestMerchant(database.db);
    const res = await create(m, linkBody({ plan: { modality: 'SINGLE' } }));
    const [plan] = await plansOf(m.merchantId);
    expect(res.status).toBe(200);
    expect(plan).toMatchObject({ modality: 'SINGLE', intervalUnit: null, intervalCount: null });
  });

  it('keeps the interval a link asks for (docs/billing.md#intervals)', async () => {
    const m = await createTestMerchant(database.db);
    const res = await create(m, linkBody({ plan: { interval: { unit: 'week', count: 2 } } }));
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(['expiresAt', 'subscriptionPlanId', 'token', 'url']);
    const [plan] = await plansOf(m.merchantId);
    expect(plan).toMatchObject({ modality: 'RECURRING', intervalUnit: 'week', intervalCount: 2 });
  });

  it('ignores unknown fields', async () => {
    const m = await createTestMerchant(database.db);
    const res = await create(m, { ...linkBody(), extra: true, plan: { ...linkBody().plan, color: 'blue' } });
    expect(res.status).toBe(200);
  });

  describe('validation: every docs/api.md#create-a-payment-link rule, on both sides of its bound', () => {
    it.each([
      [{ plan: { amount: 100 } }, true],
      [{ plan: { amount: 99_999_999_999 } }, true],
      [{ plan: { amount: 99 } }, 'plan.amount'],
      [{ plan: { amount: 99.5 } }, 'plan.amount'],
      [{ plan: { amount: '1000' } }, 'plan.amount'],
      [{ plan: { amount: 100_000_000_000 } }, 'plan.amount'],
      [{ plan: { amount: null } }, 'plan.amount'],
      [{ plan: { modality: 'WEEKLY' } }, 'plan.modality'],
      [{ plan: { externalReference: '' } }, 'plan.externalReference'],
      [{ plan: { externalReference: 'r'.repeat(255) } }, true],
      [{ plan: { externalReference: 'r'.repeat(256) } }, 'plan.externalReference'],
      [{ plan: { description: 'd'.repeat(255) } }, true],
      [{ plan: { description: 'd'.repeat(256) } }, 'plan.description'],
      [{ plan: { description: '   ' } }, 'plan.description'],
      [{ customer: { phone: '573001234567' } }, 'customer.phone'],
      [{ customer: { phone: '+57300' } }, 'customer.phone'],
      [{ customer: { phone: '+0573001234567' } }, 'customer.phone'],
      [{ customer: { phone: '+1234567' } }, 'customer.phone'],
      [{ customer: { phone: '+12345678' } }, true],
      [{ customer: { phone: '+123456789012345' } }, true],
      [{ customer: { phone: '+1234567890123456' } }, 'customer.phone'],
      [{ customer: { phone: 573001234567 } }, 'customer.phone'],
      [{ customer: { email: 'not-an-email' } }, 'customer.email'],
      [{ customer: { email: `${'a'.repeat(243)}@example.com` } }, 'customer.email'],
      [{ customer: { firstName: '' } }, 'customer.firstName'],
      [{ customer: { firstName: 'n'.repeat(100) } }, true],
      [{ customer: { lastName: 'n'.repeat(101) } }, 'customer.lastName'],
      [{ customer: { idType: 'CC' } }, 'customer.idNumber'],
      [{ customer: { idNumber: '1020304050' } }, 'customer.idType'],
      [{ customer: { idType: 'CC', idNumber: '1020304050' } }, true],
      [{ customer: { idType: 'DNI', idNumber: '1020304050' } }, 'customer.idType'],
      [{ customer: { idType: 'NIT', idNumber: '12' } }, 'customer.idNumber'],
      [{ customer: { idType: 'PP', idNumber: 'A'.repeat(21) } }, 'customer.idNumber'],
      [{ customer: { idType: 'CE', idNumber: 'AB-123' } }, true],
      // docs/billing.md#intervals
      [{ plan: { interval: { unit: 'week', count: 1 } } }, true],
      [{ plan: { interval: { unit: 'week', count: 52 } } }, true],
      [{ plan: { interval: { unit: 'month', count: 12 } } }, true],
      [{ plan: { interval: { unit: 'year', count: 3 } } }, true],
      [{ plan: { interval: { unit: 'week', count: 53 } } }, 'plan.interval.count'],
      [{ plan: { interval: { unit: 'month', count: 13 } } }, 'plan.interval.count'],
      [{ plan: { interval: { unit: 'year', count: 4 } } }, 'plan.interval.count'],
      [{ plan: { interval: { unit: 'month', count: 0 } } }, 'plan.interval.count'],
      [{ plan: { interval: { unit: 'month', count: 1.5 } } }, 'plan.interval.count'],
      [{ plan: { interval: { unit: 'month', count: '3' } } }, 'plan.interval.count'],
      [{ plan: { interval: { unit: 'month' } } }, 'plan.interval.count'],
      [{ plan: { interval: { unit: 'day', count: 1 } } }, 'plan.interval.unit'],
      [{ plan: { interval: { count: 1 } } }, 'plan.interval.unit'],
      [{ plan: { interval: 'MONTHLY' } }, 'plan.interval'],
      [{ plan: { interval: null } }, 'plan.interval'],
      [{ plan: { modality: 'SINGLE', interval: { unit: 'month', count: 1 } } }, 'plan.interval'],
      // docs/billing.md#trials
      [{ plan: { trialDays: 1 } }, true],
      [{ plan: { trialDays: 365, interval: { unit: 'week', count: 1 } } }, true],
      [{ plan: { trialDays: 0 } }, 'plan.trialDays'],
      [{ plan: { trialDays: -7 } }, 'plan.trialDays'],
      [{ plan: { trialDays: 366 } }, 'plan.trialDays'],
      [{ plan: { trialDays: 7.5 } }, 'plan.trialDays'],
      [{ plan: { trialDays: '14' } }, 'plan.trialDays'],
      [{ plan: { trialDays: null } }, 'plan.trialDays'],
      [{ plan: { trialDays: true } }, 'plan.trialDays'],
      [{ plan: { modality: 'SINGLE', trialDays: 14 } }, 'plan.trialDays'],
    ])('%j → %s', async (override, expected) => {
      const m = await createTestMerchant(database.db);
      const base = linkBody();
      const body = {
        customer: { ...base.customer, ...(override as { customer?: object }).customer },
        plan: { ...base.plan, ...(override as { plan?: object }).plan },
      };
      const res = await create(m, body);
      if (expected === true) {
        expect(res.status).toBe(200);
        return;
      }
      expect(res.status).toBe(400);
      expect(res.json.error.code).toBe('invalid_request');
      expect(res.json.error.details).toEqual([expect.objectContaining({ path: expected, message: expect.any(String) })]);
      expect(await plansOf(m.merchantId)).toHaveLength(0);
    });

    it('names every bad field once', async () => {
      const m = await createTestMerchant(database.db);
      const res = await create(m, { customer: { phone: 'x', email: 'y' }, plan: { amount: 1 } });
      expect(res.status).toBe(400);
      expect(res.json.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
        'customer.email',
        'customer.phone',
        'plan.amount',
        'plan.description',
        'plan.externalReference',
      ]);
    });

    it.each([
      ['a missing body', undefined, 400],
      ['an empty object', {}, 400],
      ['customer as a string', { customer: 'ana', plan: linkBody().plan }, 400],
      ['malformed JSON', '{"customer":', 400],
      ['a JSON array', '[]', 400],
    ])('refuses %s', async (_label, body, status) => {
      const m = await createTestMerchant(database.db);
      const res = await create(m, body);
      expect(res.status).toBe(status);
      expect(res.json.error.code).toBe('invalid_request');
      expect(await plansOf(m.merchantId)).toHaveLength(0);
    });
  });

  describe('authentication', () => {
    it.each([
      ['no header', () => ({})],
      ['Basic', (m: TestMerchant) => ({ authorization: `Basic ${btoa(`${m.apiKey}:${m.apiSecret}`)}` })],
      ['no colon', (m: TestMerchant) => ({ authorization: `Bearer ${m.apiKey}${m.apiSecret}` })],
      ['an empty secret', (m: TestMerchant) => ({ authorization: `Bearer ${m.apiKey}:` })],
      ['a secret with a colon', (m: TestMerchant) => ({ authorization: `Bearer ${m.apiKey}:${m.apiSecret}:x` })],
      ['a wrong secret', (m: TestMerchant) => ({ authorization: `Bearer ${m.apiKey}:sk_test_${'0'.repeat(32)}` })],
      ['an unknown key', (m: TestMerchant) => ({ authorization: `Bearer pk_test_${'0'.repeat(24)}:${m.apiSecret}` })],
      ['a malformed key', (m: TestMerchant) => ({ authorization: `Bearer hello:${m.apiSecret}` })],
      ['lower-case bearer', (m: TestMerchant) => ({ authorization: `bearer ${m.apiKey}:${m.apiSecret}` })],
    ])('answers 401 with %s, no rate-limit headers, nothing written', async (_label, headersOf) => {
      const m = await createTestMerchant(database.db);
      const res = await call(POST, { headers: headersOf(m), body: linkBody() });
      expect(res.status).toBe(401);
      expect(res.json.error.code).toBe('unauthorized');
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
      expect(res.headers.get('ratelimit-limit')).toBeNull();
      expect(await plansOf(m.merchantId)).toHaveLength(0);
    });

    it('answers the same 401 for an inactive merchant and a revoked key', async () => {
      const inactive = await createTestMerchant(database.db);
      await inactive.deactivate();
      const revoked = await createTestMerchant(database.db);
      await database.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.key, revoked.apiKey));
      for (const m of [inactive, revoked]) {
        const res = await create(m, linkBody());
        expect(res.status).toBe(401);
        expect(res.json.error.message).toBe('Send Authorization: Bearer <api_key>:<api_secret> with an active key');
      }
    });

    it('lets a merchant rotate: two active keys both work', async () => {
      const m = await createTestMerchant(database.db);
      const { generateApiKey, generateApiSecret, sha256Hex } = await import('@/lib/auth/secrets');
      const key = generateApiKey();
      const secret = generateApiSecret();
      await database.db.insert(apiKeys).values({ key, merchantId: m.merchantId, secretHash: sha256Hex(secret) });
      expect((await create(m, linkBody())).status).toBe(200);
      expect((await create({ headers: { authorization: `Bearer ${key}:${secret}` } }, linkBody())).status).toBe(200);
    });
  });

  describe('duplicates', () => {
    it('answers 409 for a second open plan with the same externalReference, and allows it for another merchant', async () => {
      const a = await createTestMerchant(database.db);
      const b = await createTestMerchant(database.db);
      const body = linkBody();
      expect((await create(a, body)).status).toBe(200);
      const again = await create(a, body);
      expect(again.status).toBe(409);
      expect(again.json.error.code).toBe('conflict');
      expect((await create(b, body)).status).toBe(200);
    });

    it('allows the reference again once the plan is no longer open', async () => {
      const m = await createTestMerchant(database.db);
      const body = linkBody();
      await create(m, body);
      await database.db.update(subscriptionPlans).set({ status: 'CANCELLED' }).where(eq(subscriptionPlans.merchantId, m.merchantId));
      expect((await create(m, body)).status).toBe(200);
    });

    it('creates one plan from 20 concurrent requests with one externalReference; the other 19 get 409', async () => {
      const m = await createTestMerchant(database.db);
      const body = linkBody();
      const results = await Promise.all(Array.from({ length: 20 }, () => create(m, body)));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(19);
      expect(await plansOf(m.merchantId)).toHaveLength(1);
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the first reply for the same key and body, byte for byte', async () => {
      const m = await createTestMerchant(database.db);
      const body = linkBody();
      const first = await create(m, body, { 'idempotency-key': 'k-1' });
      // Same body with other key order and spacing.
      const reordered = JSON.stringify({ plan: body.plan, customer: body.customer }, null, 2);
      const second = await create(m, reordered, { 'idempotency-key': 'k-1' });
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(second.text).toBe(first.text);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(await plansOf(m.merchantId)).toHaveLength(1);
    });

    it('answers 409 idempotency_key_reused for the same key with another body', async () => {
      const m = await createTestMerchant(database.db);
      await create(m, linkBody(), { 'idempotency-key': 'k-2' });
      const res = await create(m, linkBody(), { 'idempotency-key': 'k-2' });
      expect(res.status).toBe(409);
      expect(res.json.error.code).toBe('idempotency_key_reused');
      expect(await plansOf(m.merchantId)).toHaveLength(1);
    });

    it('keeps keys per merchant', async () => {
      const a = await createTestMerchant(database.db);
      const b = await createTestMerchant(database.db);
      const body = linkBody();
      const ra = await create(a, body, { 'idempotency-key': 'shared' });
      const rb = await create(b, body, { 'idempotency-key': 'shared' });
      expect(rb.json.subscriptionPlanId).not.toBe(ra.json.subscriptionPlanId);
    });

    it('creates one plan from 5 concurrent requests with one key, and gives five identical replies', async () => {
      const m = await createTestMerchant(database.db);
      const body = linkBody();
      const results = await Promise.all(Array.from({ length: 5 }, () => create(m, body, { 'idempotency-key': 'k-concurrent' })));
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(new Set(results.map((r) => r.text)).size).toBe(1);
      expect(await plansOf(m.merchantId)).toHaveLength(1);
    });

    it('saves nothing when the request fails, so a retry can succeed', async () => {
      const m = await createTestMerchant(database.db);
      const body = linkBody();
      await create(m, body);
      const conflict = await create(m, body, { 'idempotency-key': 'k-3' });
      expect(conflict.status).toBe(409);
      await database.db.update(subscriptionPlans).set({ status: 'CANCELLED' }).where(eq(subscriptionPlans.merchantId, m.merchantId));
      expect((await create(m, body, { 'idempotency-key': 'k-3' })).status).toBe(200);
    });

    it('refuses a key longer than 255 characters', async () => {
      const m = await createTestMerchant(database.db);
      const res = await create(m, linkBody(), { 'idempotency-key': 'k'.repeat(256) });
      expect(res.status).toBe(400);
      expect(await plansOf(m.merchantId)).toHaveLength(0);
    });
  });

  describe('rate limit (60 a minute per api_key)', () => {
    it('refuses the 61st creation in a minute with 429 and Retry-After; another merchant is unaffected', async () => {
      pinClockInMinute();
      const m = await createTestMerchant(database.db);
      const other = await createTestMerchant(database.db);
      for (let i = 0; i < 60; i++) {
        const res = await create(m, { bad: true });
        expect(res.status).toBe(400);
        expect(res.headers.get('ratelimit-remaining')).toBe(String(59 - i));
      }
      const refused = await create(m, linkBody());
      expect(refused.status).toBe(429);
      expect(refused.json.error.code).toBe('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(refused.headers.get('ratelimit-remaining')).toBe('0');
      expect(await plansOf(m.merchantId)).toHaveLength(0);
      expect((await create(other, linkBody())).status).toBe(200);
    });
  });
});

describe('POST /merchants/subscription-link for a merchant charging through Wompi', () => {
  it.each([
    [150050, /whole pesos/],
    [149900, /at least 150000 cents/],
    [100, /at least 150000 cents/],
  ])('refuses %i cents, which Wompi would refuse, with a 400 naming plan.amount and nothing created', async (amount, message) => {
    const m = await createTestMerchant(database.db);
    expect(await saveProcessor(database.db, m.merchantId, { type: 'wompi', ...testWompiKeys() })).toEqual({ ok: true });
    const res = await create(m, linkBody({ plan: { amount } }));
    expect(res.status).toBe(400);
    expect(res.json.error.details).toEqual([{ path: 'plan.amount', message: expect.stringMatching(message) }]);
    expect(await plansOf(m.merchantId)).toEqual([]);
  });

  it('takes whole pesos from COP 1.500 with Wompi, and any amount from 100 cents with the sandbox', async () => {
    const wompi = await createTestMerchant(database.db);
    await saveProcessor(database.db, wompi.merchantId, { type: 'wompi', ...testWompiKeys() });
    expect((await create(wompi, linkBody({ plan: { amount: 150000 } }))).status).toBe(200);
    const sandbox = await createTestMerchant(database.db);
    expect((await create(sandbox, linkBody({ plan: { amount: 150050 } }))).status).toBe(200);
    expect((await create(sandbox, linkBody({ plan: { amount: 100 } }))).status).toBe(200);
  });
});
