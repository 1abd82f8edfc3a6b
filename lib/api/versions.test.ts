import fs from 'node:fs';
import path from 'node:path';
import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as getStatus } from '@/app/merchants/plans/[subscriptionPlanId]/status/route';
import { POST as createCoupon } from '@/app/merchants/coupons/route';
import { POST as createLink } from '@/app/merchants/subscription-link/route';
import { POST as cancelPlan } from '@/app/merchants/subscription-plans/[id]/cancel/route';
import { POST as pausePlan } from '@/app/merchants/subscription-plans/[id]/pause/route';
import { POST as resumePlan } from '@/app/merchants/subscription-plans/[id]/resume/route';
import { GET as getRecord } from '@/app/merchants/subscription-plans/[id]/route';
import { type Database, queryRows } from '@/db/client';
import { coupons, subscriptionPlans, transactions, webhookEvents } from '@/db/schema';
import { bodyInMerchantVersion } from '@/db/queries/webhooks';
import { API_VERSIONS, LATEST_API_VERSION, planStatus20261120 } from '@/lib/api-versions';
import { jsonResponse } from '@/lib/api/handler';
import { operation } from '@/lib/api/operation';
import { route } from '@/lib/api/route';
import { payCheckout, payWithCard } from '@/lib/checkout/payments';
import { loadCheckoutSession } from '@/lib/checkout/session';
import { updateMerchant } from '@/lib/merchants/merchants';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { LIFECYCLE_EVENT_TYPES } from '@/lib/webhooks/payload';
import { CARDS, cardForm } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { call } from '@/test/http';
import { createTestMerchant, type TestMerchant } from '@/test/merchants';

// docs/api.md#versioning: a merchant pinned to 2026-11-20, or a request naming it, gets 2026-11-20's
// replies and webhook bodies byte for byte as they were before versions existed. The fixture was
// recorded from the replies of that code (the newest version's path, which no older shape
// touches), with ids, tokens and times replaced by placeholders; nothing else is changed. Events
// are listed by type: two made in one millisecond have ids in no set order.

const FIXTURE = path.join(__dirname, '../../test/fixtures/api-2026-11-20.txt');

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

/** Ids, the token, processor ids and times as placeholders: the rest of the bytes stay as sent. */
function placeholders(texts: [label: string, text: string][]): string {
  const ids = new Map<string, string>();
  const named = (value: string, kind: string) => {
    if (!ids.has(value)) ids.set(value, `<${kind} ${[...ids.keys()].filter((k) => k.startsWith(kind)).length + 1}>`);
    return ids.get(value)!;
  };
  return texts
    .map(([label, text]) => {
      const token = /"token":"([0-9A-Za-z]{10})"/.exec(text)?.[1];
      if (token) ids.set(token, '<token>');
      let out = text;
      for (const [value, name] of ids) if (name === '<token>') out = out.replaceAll(value, name);
      out = out
        .replace(/\b(sub|txn|cus|mch|evt)_[0-9A-Za-z]+/g, (id, kind: string) => named(id, kind))
        .replace(/"\d+(-\d+){2,}"/g, '"<gateway id>"')
        .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, '<iso time>')
        .replace(/\b1\d{12}\b/g, '<epoch ms>');
      return `${label}\n${out}\n`;
    })
    .join('\n');
}

const SPEC_ONLY_LINK = {
  customer: { phone: '+573001234567', email: 'ana@example.com', firstName: 'Ana', lastName: 'Gómez', idType: 'CC', idNumber: '1020304050' },
  plan: { externalReference: 'order-1042', description: 'Plan mensual', amount: 150000, modality: 'RECURRING' },
};

/** A journey in 2026-11-20's fields only through every versioned reply; what it answered and the webhook bodies it made. */
async function journey(m: TestMerchant, headers: Record<string, string> = {}) {
  const h = { ...m.headers, ...headers };
  const texts: [string, string][] = [];
  const versions = new Set<string | null>();
  const keep = (label: string, res: { status: number; text: string; headers: Headers }) => {
    expect(res.status, `${label}: ${res.text}`).toBe(200);
    versions.add(res.headers.get('servicepay-version'));
    texts.push([label, res.text]);
    return JSON.parse(res.text);
  };
  // Unknown fields are ignored in every version: 2026-11-20's caller may send a field a later version reads.
  const link = keep('POST /merchants/subscription-link', await call(createLink, { headers: h, body: SPEC_ONLY_LINK }));
  const id = link.subscriptionPlanId as string;
  keep('GET status, before payment', await call(getStatus, { headers: h, params: { subscriptionPlanId: id } }));
  keep('GET plan record, before payment', await call(getRecord, { headers: h, params: { id } }));
  await payWithCard(database.db, createSandboxProcessor({ pendingMs: 0 }), { token: link.token, card: parseCard(cardForm(CARDS.approved))! });
  keep('GET status, paid', await call(getStatus, { headers: h, params: { subscriptionPlanId: id } }));
  keep('GET plan record, paid', await call(getRecord, { headers: h, params: { id } }));
  keep('POST pause', await call(pausePlan, { headers: h, params: { id } }));
  keep('POST resume', await call(resumePlan, { headers: h, params: { id }, body: {} }));
  keep('POST cancel', await call(cancelPlan, { headers: h, params: { id }, body: { reason: 'Customer asked to cancel' } }));
  const events = await database.db.select().from(webhookEvents).where(eq(webhookEvents.planId, id)).orderBy(asc(webhookEvents.type));
  for (const e of events) texts.push([`webhook ${e.type}`, e.body]);
  return { texts, versions };
}

async function merchantWith(settings: Parameters<typeof updateMerchant>[2] = {}) {
  const m = await createTestMerchant(database.db);
  await updateMerchant(database.db, m.merchantId, { webhookEvents: [...LIFECYCLE_EVENT_TYPES], ...settings });
  return m;
}

describe('version 2026-11-20 is the contract as it was', () => {
  it('gives a merchant pinned to it the replies and webhook bodies of before, byte for byte', async () => {
    if (process.env.RECORD_VERSION_FIXTURE === '1') {
      // How the fixture was made: the newest version's path, before any shape of it differed.
      const { texts } = await journey(await merchantWith());
      fs.writeFileSync(FIXTURE, placeholders(texts));
    }
    const { texts, versions } = await journey(await merchantWith({ apiVersion: '2026-11-20' }));
    expect(placeholders(texts)).toBe(fs.readFileSync(FIXTURE, 'utf8'));
    expect([...versions]).toEqual(['2026-11-20']);
  });

  it('gives the same replies to a request naming it, whatever the merchant is pinned to', async () => {
    const { texts, versions } = await journey(await merchantWith(), { 'ServicePay-Version': '2026-11-20' });
    const replies = texts.filter(([label]) => !label.startsWith('webhook'));
    const fixture = fs.readFileSync(FIXTURE, 'utf8');
    expect(placeholders(replies)).toBe(fixture.slice(0, fixture.indexOf('\nwebhook ')));
    expect([...versions]).toEqual(['2026-11-20']);
  });
});

describe('the ServicePay-Version header', () => {
  const status = (m: TestMerchant, headers: Record<string, string>) =>
    call(getStatus, { headers: { ...m.headers, ...headers }, params: { subscriptionPlanId: 'sub_0000000000000000000000000' } });

  it('names the version of every reply after authentication, the pinned one when the request names none', async () => {
    const m = await createTestMerchant(database.db);
    expect((await status(m, {})).headers.get('servicepay-version')).toBe(LATEST_API_VERSION);
    for (const version of API_VERSIONS) {
      const res = await status(m, { 'ServicePay-Version': version });
      expect(res.status).toBe(404);
      expect(res.headers.get('servicepay-version')).toBe(version);
    }
    await updateMerchant(database.db, m.merchantId, { apiVersion: '2026-11-20' });
    expect((await status(m, {})).headers.get('servicepay-version')).toBe('2026-11-20');
  });

  it.each([
    ['an unknown date', '2025-01-01', 'ServicePay-Version "2025-01-01" is not a version of this API; the versions are 2026-11-20, 2026-11-26, 2026-11-28'],
    ['a date between versions', '2026-11-21', 'ServicePay-Version "2026-11-21" is not a version of this API; the versions are 2026-11-20, 2026-11-26, 2026-11-28'],
    ['a word', 'latest', 'ServicePay-Version "latest" must be a version date (YYYY-MM-DD); the versions are 2026-11-20, 2026-11-26, 2026-11-28'],
    ['another date form', '2026/11/20', 'ServicePay-Version "2026/11/20" must be a version date (YYYY-MM-DD); the versions are 2026-11-20, 2026-11-26, 2026-11-28'],
    ['an empty value', '', 'ServicePay-Version "" must be a version date (YYYY-MM-DD); the versions are 2026-11-20, 2026-11-26, 2026-11-28'],
    ['a long value (cut in the message)', 'x'.repeat(300), `ServicePay-Version "${'x'.repeat(40)}…" must be a version date (YYYY-MM-DD); the versions are 2026-11-20, 2026-11-26, 2026-11-28`],
  ])('refuses %s with a 400 naming it and the versions there are', async (_label, value, message) => {
    const m = await createTestMerchant(database.db);
    const res = await status(m, { 'ServicePay-Version': value });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: 'invalid_request', message });
    expect(res.headers.get('servicepay-version')).toBeNull();
    expect(res.headers.get('ratelimit-limit')).toBe('120');
  });

  it('refuses an unknown version on link creation and creates nothing', async () => {
    const m = await createTestMerchant(database.db);
    const res = await call(createLink, { headers: { ...m.headers, 'ServicePay-Version': '1999-01-01' }, body: SPEC_ONLY_LINK });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toContain('"1999-01-01" is not a version of this API');
    const rows = await database.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.merchantId, m.merchantId));
    expect(rows).toEqual([]);
  });
});

describe('the version gate, on shapes that differ', () => {
  // An operation whose newest shapes carry what a later version added: a reply field, a plan
  // state, a request field with a default. 2026-11-20's shapes are 2026-11-20's.
  const newest = z.object({ id: z.string(), status: z.enum(['PENDING_ACTIVATION', 'TRIALING']), trialDays: z.number().optional() });
  const older = z.object({ id: z.string(), status: planStatus20261120 });
  const request = z.object({ amount: z.number().int(), trialDays: z.number().int().default(0) });
  const op = operation({
    method: 'POST',
    path: '/merchants/versioned',
    operationId: 'versioned',
    summary: 'A versioned operation',
    description: 'Test only',
    tag: 'Test',
    auth: 'merchant',
    limit: 'merchant',
    body: { schema: request, before: { '2026-11-20': z.object({ amount: z.number().int() }) }, required: true },
    replies: { 200: { description: 'ok', body: { schema: newest, before: { '2026-11-20': older } } } },
    errors: [],
    sample: { path: '/merchants/versioned' },
  });
  const handler = route(op, async (_req, { body }) => jsonResponse({ id: 'x', status: 'TRIALING', trialDays: body.trialDays }));

  it('answers the newest version with every field and state', async () => {
    const m = await createTestMerchant(database.db);
    const res = await call(handler, { headers: m.headers, body: { amount: 100, trialDays: 7 } });
    expect(res.text).toBe('{"id":"x","status":"TRIALING","trialDays":7}');
  });

  it("parses 2026-11-20's request as it was first published and strips its reply to 2026-11-20's fields and states", async () => {
    const m = await merchantWith({ apiVersion: '2026-11-20' });
    const res = await call(handler, { headers: m.headers, body: { amount: 100, trialDays: 7 } });
    // trialDays was not read (the newest shape's default applies), not replied, and TRIALING shows as it was then.
    expect(res.text).toBe('{"id":"x","status":"PENDING_ACTIVATION"}');
    expect(res.headers.get('servicepay-version')).toBe('2026-11-20');
    const asked = await call(handler, { headers: { ...m.headers, 'ServicePay-Version': LATEST_API_VERSION }, body: { amount: 100, trialDays: 7 } });
    expect(asked.text).toBe('{"id":"x","status":"TRIALING","trialDays":7}');
  });

  it("stores a webhook body in the merchant's pinned version, chosen by the statement that writes it", async () => {
    const pinned = await merchantWith({ apiVersion: '2026-11-20' });
    const current = await createTestMerchant(database.db);
    const bodies = async (merchantId: string) => {
      const [row] = await queryRows<{ body: string }>(
        database.db,
        sql`select ${bodyInMerchantVersion(merchantId, '{"v":"newest"}', [['2026-11-20', '{"v":"spec"}']])} as body`,
      );
      return row!.body;
    };
    expect(await bodies(pinned.merchantId)).toBe('{"v":"spec"}');
    expect(await bodies(current.merchantId)).toBe('{"v":"newest"}');
    expect(bodyInMerchantVersion(current.merchantId, '{"v":"same"}', [])).toBe('{"v":"same"}');
  });
});

describe("this round's pricing, hidden from 2026-11-20", () => {
  let reference = 0;
  /** A link whose plan asks for `extra` (fields of a later version), paid with the approved card: what it charged. */
  async function paidLink(m: TestMerchant, extra: Record<string, unknown>, headers: Record<string, string> = {}) {
    const plan = { ...SPEC_ONLY_LINK.plan, externalReference: `pricing-${++reference}`, ...extra };
    const res = await call(createLink, { headers: { ...m.headers, ...headers }, body: { ...SPEC_ONLY_LINK, plan } });
    expect(res.status, res.text).toBe(200);
    const session = await loadCheckoutSession(database.db, res.json.token);
    await payWithCard(database.db, createSandboxProcessor({ pendingMs: 0 }), { token: res.json.token, card: parseCard(cardForm(CARDS.approved))! });
    const [charge] = await database.db.select().from(transactions).where(eq(transactions.planId, res.json.subscriptionPlanId));
    // The charge's event: the merchant also takes every lifecycle event (merchantWith), so the plan has
    // others, in no set order.
    const [event] = await database.db
      .select()
      .from(webhookEvents)
      .where(and(eq(webhookEvents.planId, res.json.subscriptionPlanId), eq(webhookEvents.type, 'subscription.charge.approved')));
    return { reply: res, session, charge: charge!, event: event! };
  }

  it("reads no coupon and no promotion codes from 2026-11-20's request: the plan is 2026-11-20's, charged in full, the coupon not redeemed", async () => {
    const m = await merchantWith({ apiVersion: '2026-11-20' });
    const coupon = await call(createCoupon, { headers: m.headers, body: { code: 'MITAD50', percentOff: 50, duration: 'forever' } });
    expect(coupon.status, coupon.text).toBe(201);

    const pinned = await paidLink(m, { coupon: 'MITAD50' });
    expect(Object.keys(pinned.reply.json)).toEqual(['token', 'url', 'expiresAt', 'subscriptionPlanId']);
    expect(pinned.session.discount).toBeUndefined();
    expect(pinned.charge).toMatchObject({ amount: 150000, discount: 0 });
    expect(JSON.parse(pinned.event.body).data.amount).toBe(150000);
    const promotion = await call(createLink, { headers: m.headers, body: { ...SPEC_ONLY_LINK, plan: { ...SPEC_ONLY_LINK.plan, externalReference: 'pricing-promotion', allowPromotionCodes: true } } });
    expect(promotion.status, promotion.text).toBe(200);
    expect((await loadCheckoutSession(database.db, promotion.json.token)).promotionCodes).toBeUndefined();
    const [row] = await database.db.select().from(coupons).where(eq(coupons.id, coupon.json.id));
    expect(row!.timesRedeemed).toBe(0);

    // The same merchant naming the version that has coupons gets the discount, and its webhook body
    // keeps 2026-11-20's fields (the amount is what was charged, as first published).
    const asked = await paidLink(m, { coupon: 'MITAD50' }, { 'ServicePay-Version': LATEST_API_VERSION });
    expect(asked.session.discount).toMatchObject({ code: 'MITAD50', amountDue: 75000 });
    expect(asked.charge).toMatchObject({ amount: 75000, discount: 75000 });
    const body = JSON.parse(asked.event.body);
    expect(Object.keys(body.data)).toEqual(['subscriptionTransactionId', 'subscriptionPlanId', 'externalReference', 'transactionId', 'amount', 'status', 'chargeDate']);
    expect(body.data.amount).toBe(75000);
  });

  it("reads no trialDays from 2026-11-20's request, and shows a trial begun in a later version as 2026-11-20's waiting plan in replies and webhook bodies", async () => {
    const m = await merchantWith({ apiVersion: '2026-11-20' });
    // Asked in 2026-11-20: no trial, the checkout charges at once.
    const pinned = await paidLink(m, { trialDays: 2 });
    expect(pinned.charge).toMatchObject({ amount: 150000, status: 'APPROVED' });

    // Asked in the newest version: the checkout saves the card and the plan is TRIALING.
    const newest = { ...m.headers, 'ServicePay-Version': LATEST_API_VERSION };
    const res = await call(createLink, { headers: newest, body: { ...SPEC_ONLY_LINK, plan: { ...SPEC_ONLY_LINK.plan, externalReference: `pricing-${++reference}`, trialDays: 2 } } });
    expect(res.status, res.text).toBe(200);
    const id = res.json.subscriptionPlanId as string;
    const started = await payCheckout(database.db, createSandboxProcessor({ pendingMs: 0 }), {
      token: res.json.token,
      payment: { instrument: { type: 'CARD', card: parseCard(cardForm(CARDS.approved))! } },
    });
    expect(started.status).toBe('TRIALING');
    expect((await call(getRecord, { headers: newest, params: { id } })).json).toMatchObject({ status: 'TRIALING', trial: { days: 2 } });

    const status = await call(getStatus, { headers: m.headers, params: { subscriptionPlanId: id } });
    expect(Object.keys(status.json)).toEqual(['subscriptionPlanId', 'externalReference', 'plan']);
    expect(Object.keys(status.json.plan)).toEqual(['status', 'amount', 'currency', 'description', 'nextChargeDate']);
    expect(status.json.plan.status).toBe('PENDING_ACTIVATION');
    const record = await call(getRecord, { headers: m.headers, params: { id } });
    expect(record.json.status).toBe('PENDING_ACTIVATION');
    expect(record.json).not.toHaveProperty('trial');
    // A 2-day trial tells its end at once (the pinned merchant chose every lifecycle event): in
    // 2026-11-20's body, 2026-11-20's lifecycle fields and states, no trial field.
    const events = await database.db.select().from(webhookEvents).where(eq(webhookEvents.planId, id));
    expect(events.map((e) => e.type)).toEqual(['subscription.trial_will_end']);
    const { data } = JSON.parse(events[0]!.body);
    expect(Object.keys(data)).toEqual(['subscriptionPlanId', 'externalReference', 'status', 'nextChargeDate']);
    expect(data.status).toBe('PENDING_ACTIVATION');
  });
});
