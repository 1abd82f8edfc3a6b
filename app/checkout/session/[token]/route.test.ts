import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { subscriptionPlans } from '@/db/schema';
import { eq } from 'drizzle-orm';
import { createTestLink } from '@/test/checkout';
import { pinClockInMinute } from '@/test/clock';
import { useTestDatabase } from '@/test/database';
import { call } from '@/test/http';
import { GET } from './route';

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

let ip = 0;
// Each test its own client address, so the per-IP limit of one test does not reach another.
const session = (token: string, from = `203.0.113.${++ip}`) =>
  call(GET, { path: `/checkout/session/${token}`, params: { token }, headers: { 'x-forwarded-for': from } });

describe('GET /checkout/session/{token}', () => {
  it('answers docs/api.md#checkout-session with the plan status, never cached', async () => {
    const link = await createTestLink(database.db, { description: 'Plan Gimnasio', amount: 150000 });
    await database.db.update((await import('@/db/schema')).merchants).set({ allowedDomains: ['shop.example.com'] });
    const res = await session(link.token);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      customer: { phone: '+573001234567', firstName: 'Ana' },
      planName: 'Plan Gimnasio',
      amount: 150000,
      currency: 'COP',
      merchantName: 'Tienda de prueba',
      merchantId: link.merchant.merchantId,
      modality: 'SUBSCRIPTION',
      expiresAt: Date.parse(link.expiresAt),
      allowedDomains: ['shop.example.com'],
      status: 'PENDING_ACTIVATION',
    });
    expect(res.headers.get('cache-control')).toBe('no-store, no-transform');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get('ratelimit-limit')).toBe('60');
  });

  it('says SINGLE for a single-payment plan', async () => {
    const link = await createTestLink(database.db, { modality: 'SINGLE' });
    expect((await session(link.token)).json.modality).toBe('SINGLE');
  });

  it.each([
    ['too short', 'abc123'],
    ['too long', 'abcdefghijk'],
    ['outside base62', 'abcde-ghij'],
    ['with a space', 'abcde ghij'],
    ['unknown', 'ZZZZZZZZZZ'],
  ])('answers 404 for a token %s', async (_label, token) => {
    const res = await session(token);
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe('not_found');
    expect(res.headers.get('cache-control')).toBe('no-store, no-transform');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('answers 400 session_expired for an unpaid link past its expiry', async () => {
    const link = await createTestLink(database.db);
    await link.expire();
    const res = await session(link.token);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('session_expired');
  });

  it('still resolves a paid link after its expiry, so the page can say it was paid', async () => {
    const link = await createTestLink(database.db);
    await link.expire();
    await database.db.update(subscriptionPlans).set({ status: 'ACTIVE' }).where(eq(subscriptionPlans.id, link.subscriptionPlanId));
    const res = await session(link.token);
    expect(res.status).toBe(200);
    expect(res.json.status).toBe('ACTIVE');
  });

  it('refuses the 61st request in a minute from one address, not from another', async () => {
    const link = await createTestLink(database.db);
    pinClockInMinute();
    for (let i = 0; i < 60; i++) expect((await session(link.token, '198.51.100.7')).status).toBe(200);
    const refused = await session(link.token, '198.51.100.7');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // A spoofed left-hand X-Forwarded-For entry does not escape the limit.
    expect((await session(link.token, '10.9.9.9, 198.51.100.7')).status).toBe(429);
    expect((await session(link.token, '198.51.100.8')).status).toBe(200);
  });
});
