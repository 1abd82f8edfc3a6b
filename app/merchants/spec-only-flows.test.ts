import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '@/db/client';
import { POST as runBillingClock } from '@/app/admin/billing/run/route';
import { POST as createMerchantRoute } from '@/app/admin/merchants/route';
import { GET as getSession } from '@/app/checkout/session/[token]/route';
import { POST as payRoute } from '@/app/checkout/session/[token]/payments/route';
import { GET as getPaymentRoute } from '@/app/checkout/session/[token]/payments/[transactionId]/route';
import { GET as statusRoute } from '@/app/merchants/plans/[subscriptionPlanId]/status/route';
import { POST as createLinkRoute } from '@/app/merchants/subscription-link/route';
import { POST as cancelRoute } from '@/app/merchants/subscription-plans/[id]/cancel/route';
import { POST as pauseRoute } from '@/app/merchants/subscription-plans/[id]/pause/route';
import { POST as resumeRoute } from '@/app/merchants/subscription-plans/[id]/resume/route';
import { GET as planRecordRoute } from '@/app/merchants/subscription-plans/[id]/route';
import { POST as voidRoute } from '@/app/merchants/transactions/[subscriptionTransactionId]/void/route';
import { truncateAll, useTestDatabase } from '@/test/database';
import { adminHeaders, call } from '@/test/http';
import { type Receiver, startReceiver } from '@/test/webhook-receiver';

/*
 * SPEC-only callers see no difference (docs/api.md#versioning, issue 32): a merchant that sends only
 * SPEC's fields goes through every flow it has (link creation RECURRING and SINGLE, status polling,
 * the plan record, the checkout session and its payments with the sandbox's cards, renewals and
 * their retries by the test clock, pause/resume/cancel/void) and every reply (status, headers,
 * body) and every webhook as its receiver gets it (headers and raw body) is compared with a golden
 * file recorded from the code before this round's pricing work.
 *
 * The golden, test/fixtures/spec-only-flows.json, was RECORDED AT COMMIT d208c38 (the commit
 * before the pricing work: intervals, trials, coupons, price changes, receipts, API versions). To
 * record it again from that commit:
 *
 *   git worktree add /tmp/baseline d208c38 && cp -a node_modules /tmp/baseline/ && cd /tmp/baseline
 *   (npm install there if its package.json differs), copy this file to the same path there, then
 *   SPEC_FLOWS_RECORD=1 npx vitest run app/merchants/spec-only-flows.test.ts
 *   and copy /tmp/baseline/test/fixtures/spec-only-flows.json back here.
 *
 * This file imports only what d208c38 has too (routes, test/database, test/http,
 * test/webhook-receiver), so the same file records there and compares here. Volatile values are
 * normalised: every id becomes its prefix and its order of appearance (sub#1, txn#2), the checkout
 * token, keys and the processor's ids likewise, a valid signature '<valid signature>', the row's
 * updatedAt (the database's clock) a placeholder. The application's clock is pinned (Date only),
 * so every date the code computes is the same on each run. Differences we made on purpose are
 * taken out of this run (withoutDeliberateAdditions) or put into the golden (withRenewalLadder),
 * each with its reason; anything else fails.
 */

const GOLDEN = path.resolve(__dirname, '../../test/fixtures/spec-only-flows.json');
const RECORD = process.env.SPEC_FLOWS_RECORD === '1';

/**
 * What this run answers that d208c38 did not, on purpose, taken out of this run's replies before
 * the comparison (each checked for its shape first): nothing else may be added.
 * - Every merchant API reply names the API version it used, `ServicePay-Version` (the one the
 *   request named, in the variant that names one)
 *   (docs/api.md#versioning: a reply says which version it was answered in).
 * - The test clock's summary (an operator's reply, not a merchant's) counts renewal links issued,
 *   reminded and expired, and trial e-mails: zero for a SPEC-only merchant's plans but where the
 *   renewal ladder below acts.
 */
function withoutDeliberateAdditions(step: Step): Step {
  const out = structuredClone(step);
  const version = out.reply.headers['servicepay-version'];
  // The version the request named, or the merchant's own: anything else stays and fails.
  const expected = requestVersion ? version === requestVersion : /^\d{4}-\d{2}-\d{2}$/.test(version ?? '');
  if (out.request.path.startsWith('/merchants/') && version && expected) delete out.reply.headers['servicepay-version'];
  if (out.request.path === '/admin/billing/run' && out.reply.body && typeof out.reply.body === 'object') {
    const body = out.reply.body as Record<string, unknown>;
    if (body.trialNotices === 0) delete body.trialNotices;
    const links = body.renewalLinks as Record<string, unknown> | undefined;
    if (links && Object.values(links).every((n) => n === 0)) delete body.renewalLinks;
  }
  return out;
}

/**
 * The renewal ladder (docs/billing.md#renewal-links, on by default, a merchant setting): when the
 * last retry of a card renewal fails, the plan is not cancelled at once; the customer gets a
 * renewal link and 5 days of grace (the plan ACTIVE, its next charge the failed retry's date, no
 * webhook for a SPEC-only merchant), and the plan is CANCELLED when grace ends. d208c38 cancelled
 * it on the last retry. Applied to the golden, step by step; the states before and after are
 * compared as recorded.
 */
function withRenewalLadder(flow: string, steps: Step[]): Step[] {
  if (flow !== 'retries') return steps;
  const out = structuredClone(steps);
  const body = (name: string) => {
    const step = out.find((s) => s.step === name);
    if (!step) throw new Error(`no step '${name}' in the golden`);
    return step.reply.body as Record<string, Record<string, unknown>>;
  };
  const due = body('status once paid').plan!.nextChargeDate as number;
  body('test clock 5 days after the due date').cancelledPlanIds = [] as never;
  for (const days of [5, 8]) body(`status ${days} days after the due date`).plan = { ...body(`status ${days} days after the due date`).plan, status: 'ACTIVE', nextChargeDate: due + 5 * DAY };
  body('test clock 8 days after the due date').renewalLinks = { issued: 0, reminded: 1, expired: 0 };
  const end = body('test clock 10 days after the due date');
  end.cancelledPlanIds = ['<sub#1>'] as never;
  end.renewalLinks = { issued: 0, reminded: 0, expired: 1 };
  return out;
}

/** 2026-11-02 10:00 in Bogotá: the pinned clock's start. */
const T0 = Date.parse('2026-11-02T15:00:00.000Z');
const DAY = 86_400_000;
const WEBHOOK_SECRET = 'whsec_specOnlyFlowsTestSecret0123456789abcd';

type Json = unknown;
interface Step {
  step: string;
  request: { method: string; path: string; body?: Json };
  reply: { status: number; headers: Record<string, string>; body: Json };
  webhooks: { headers: Record<string, string>; body: Json }[];
}

let database: Database;
let receiver: Receiver;
/** Webhooks of the current test already taken by a step. */
let seen = 0;
/** The API version every merchant request of the current test names (none: the merchant's own, the newest). */
let requestVersion: string | undefined;
const recorded: Record<string, Step[]> = {};

beforeAll(async () => {
  database = await useTestDatabase();
  receiver = await startReceiver();
  // One fake clock for the file: the sandbox processor keeps the Date.now it was made with.
  vi.useFakeTimers({ toFake: ['Date'] });
});
afterAll(async () => {
  vi.useRealTimers();
  await receiver.close();
  if (RECORD) {
    fs.mkdirSync(path.dirname(GOLDEN), { recursive: true });
    fs.writeFileSync(GOLDEN, `${JSON.stringify({ recordedAt: 'd208c38', flows: recorded }, null, 2)}\n`);
  }
});
beforeEach(async () => {
  await truncateAll(database.db);
  receiver.received.length = 0;
  seen = 0;
  vi.setSystemTime(T0);
});

/** Labels volatile values by kind and order of appearance, so two runs name them alike. */
class Normaliser {
  private labels = new Map<string, string>();
  private counts = new Map<string, number>();

  label(value: string, kind: string): string {
    let label = this.labels.get(value);
    if (!label) {
      const n = (this.counts.get(kind) ?? 0) + 1;
      this.counts.set(kind, n);
      label = `<${kind}#${n}>`;
      this.labels.set(value, label);
    }
    return label;
  }

  /** A value known to be volatile (a checkout token, a key) is labelled wherever it appears. */
  register(value: unknown, kind: string): void {
    if (typeof value === 'string' && value) this.label(value, kind);
  }

  string(s: string): string {
    let out = s;
    for (const [value, label] of this.labels) if (value.length >= 8) out = out.split(value).join(label);
    return out
      .replace(/\b(sub|txn|evt|mch|cus|req|key|whk|eml)_[0-9A-Za-z]{24}\b/g, (id, kind: string) => this.label(id, kind))
      .replace(/\b(pk|sk)_test_[0-9A-Za-z]{24,32}\b/g, (key, kind: string) => this.label(key, kind))
      .replace(/\b\d{4,6}-\d{13}-\d{5}\b/g, (id) => this.label(id, 'gateway'))
      .replace(/\/pay\/([A-Za-z0-9]{10})\b/g, (_match, token: string) => `/pay/${this.label(token, 'token')}`);
  }

  value(v: Json, key?: string): Json {
    if (key === 'token' && typeof v === 'string') return this.label(v, 'token');
    if (typeof v === 'string') return key === 'updatedAt' ? '<updatedAt: the database clock>' : this.string(v);
    if (Array.isArray(v)) return v.map((item) => this.value(item));
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, item]) => [k, this.value(item, k)]));
    return v;
  }
}

const VOLATILE_HEADERS = new Set(['date', 'host', 'content-length', 'connection', 'keep-alive']);

function headersOf(entries: Iterable<[string, string | string[] | undefined]>, n: Normaliser, body?: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of entries) {
    const key = name.toLowerCase();
    if (VOLATILE_HEADERS.has(key) || raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    if (key === 'x-webhook-signature') {
      const expected = createHmac('sha256', WEBHOOK_SECRET).update(body ?? '').digest('hex');
      out[key] = value === expected ? '<valid signature>' : `<INVALID signature ${value}>`;
    } else {
      out[key] = n.string(value);
    }
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}

async function count(query: ReturnType<typeof sql>): Promise<number> {
  const result = (await database.db.execute(query)) as unknown as { rows?: { n: number }[] } & { n: number }[];
  return Number((result.rows ?? result)[0]!.n);
}

/**
 * Waits until the receiver has every webhook the database recorded (only the events a merchant
 * chose are recorded), and each delivery's attempt is written, so that the next test's truncate
 * does not race it.
 */
async function deliveries(since: number): Promise<Receiver['received']> {
  const events = await count(sql`select count(*)::int as n from webhook_events`);
  await receiver.waitFor(events);
  for (let tries = 0; (await count(sql`select count(distinct event_id)::int as n from webhook_attempts`)) < events; tries += 1) {
    if (tries > 500) throw new Error('a delivered webhook had no attempt recorded after 10 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return receiver.received.slice(since);
}

/** Any route handler of the app (each types its own params). */
type Handler = (req: Request, ctx: { params: Promise<never> }) => Response | Promise<Response>;
type Params = Record<string, string>;

/** One SPEC-only merchant's flow: each call recorded, with the webhooks it caused. */
class Flow {
  readonly steps: Step[] = [];
  readonly n = new Normaliser();
  headers: Record<string, string> = {};

  constructor(private readonly name: string) {
    // The golden is what a merchant naming no version got; the other variant is held to it.
    if (!requestVersion) recorded[name] = this.steps;
    this.n.register(receiver.url, 'receiverUrl');
  }

  async send(
    step: string,
    handler: Handler,
    request: { method: string; path: string; params?: Record<string, string>; body?: Json; headers?: Record<string, string> },
  ) {
    // Each call a second later, as a merchant's calls would be.
    vi.setSystemTime(Date.now() + 1000);
    const headers = { ...(request.headers ?? this.headers), ...(requestVersion && request.path.startsWith('/merchants/') ? { 'servicepay-version': requestVersion } : {}) };
    const res = await call<Params>(handler as unknown as (req: Request, ctx: { params: Promise<Params> }) => Promise<Response>, { method: request.method, path: request.path, params: request.params ?? {}, body: request.body, headers });
    const received = await deliveries(seen);
    seen += received.length;
    const body = res.json ?? res.text;
    const reply = { status: res.status, headers: headersOf(res.headers.entries(), this.n), body: this.n.value(body) };
    const webhooks = received
      .slice()
      // Webhooks of one call arrive in any order: ordered by what they say, ids aside.
      .sort((a, b) => sortKey(a.body).localeCompare(sortKey(b.body)))
      .map((w) => ({ headers: headersOf(Object.entries(w.headers), this.n, w.body), body: this.n.value(JSON.parse(w.body)) }));
    this.steps.push({ step, request: { method: request.method, path: this.n.string(request.path), ...(request.body === undefined ? {} : { body: this.n.value(request.body) }) }, reply, webhooks });
    return { status: res.status, json: res.json };
  }

  async compare() {
    if (RECORD) return;
    const golden = JSON.parse(fs.readFileSync(GOLDEN, 'utf8')) as { flows: Record<string, Step[]> };
    expect(golden.flows[this.name], `the golden has no flow '${this.name}': record it again`).toBeDefined();
    expect(this.steps.map(withoutDeliberateAdditions)).toEqual(withRenewalLadder(this.name, golden.flows[this.name]!));
  }
}

const sortKey = (raw: string) => raw.replace(/\b(sub|txn|evt)_[0-9A-Za-z]{24}\b/g, '').replace(/\b\d{4,6}-\d{13}-\d{5}\b/g, '');

const CARD = {
  approved: '4242 4242 4242 4242',
  declined: '4111 1111 1111 1111',
  error: '4000 0000 0000 0119',
  pendingApproved: '4000 0000 0000 0051',
  renewalsDeclined: '4000 0000 0000 0341',
};
const card = (cardNumber: string) => ({ cardNumber, cardExpiry: '12/30', cardCvc: '123', cardHolder: 'Ana Gómez' });

/** SPEC's link-creation fields, every one of them, and nothing else. */
function specLinkBody(reference: string, plan: { amount?: number; modality?: 'RECURRING' | 'SINGLE' } = {}) {
  return {
    customer: { phone: '+573001234567', email: 'ana@example.com', firstName: 'Ana', lastName: 'Gómez', idType: 'CC', idNumber: '1020304050' },
    plan: { externalReference: reference, description: 'Plan Gimnasio', amount: 2990000, ...plan },
  };
}

async function merchantFlow(name: string) {
  const flow = new Flow(name);
  const created = await flow.send('operator creates the merchant', createMerchantRoute, {
    method: 'POST',
    path: '/admin/merchants',
    headers: adminHeaders(),
    body: { name: 'Gimnasio Central', webhookUrl: receiver.url, webhookSecret: WEBHOOK_SECRET, allowedDomains: ['shop.example.com'] },
  });
  expect(created.status).toBe(201);
  flow.n.register(created.json.apiSecret, 'apiSecret');
  flow.headers = { authorization: `Bearer ${created.json.apiKey}:${created.json.apiSecret}` };
  return flow;
}

async function createLink(flow: Flow, step: string, body: Json) {
  const res = await flow.send(step, createLinkRoute, { method: 'POST', path: '/merchants/subscription-link', body });
  if (res.status === 200) flow.n.register(res.json.token, 'token');
  return res;
}

const status = (flow: Flow, step: string, planId: string) =>
  flow.send(step, statusRoute, { method: 'GET', path: `/merchants/plans/${planId}/status`, params: { subscriptionPlanId: planId } });
const record = (flow: Flow, step: string, id: string) =>
  flow.send(step, planRecordRoute, { method: 'GET', path: `/merchants/subscription-plans/${id}`, params: { id } });
const session = (flow: Flow, step: string, token: string) =>
  flow.send(step, getSession, { method: 'GET', path: `/checkout/session/${token}`, params: { token }, headers: { 'x-forwarded-for': '198.51.100.7' } });
const pay = (flow: Flow, step: string, token: string, cardNumber: string) =>
  flow.send(step, payRoute, { method: 'POST', path: `/checkout/session/${token}/payments`, params: { token }, body: card(cardNumber), headers: { 'x-forwarded-for': '198.51.100.7' } });
const clock = (flow: Flow, step: string, at: number) => {
  vi.setSystemTime(at - 1000);
  return flow.send(step, runBillingClock, { method: 'POST', path: '/admin/billing/run', headers: adminHeaders(), body: { now: at } });
};
const planAction = (flow: Flow, step: string, handler: Handler, id: string, action: string, body?: Json) =>
  flow.send(step, handler, { method: 'POST', path: `/merchants/subscription-plans/${id}/${action}`, params: { id }, body });


/**
 * A merchant on its own version (the newest, as every new merchant), and one naming 2026-11-20,
 * SPEC's own version, in every request: both get what d208c38 answered (d208c38 ignores the
 * header). Webhook bodies follow the merchant's pinned version, the newest, in both.
 */
const VARIANTS = [
  { label: 'naming no version', version: undefined },
  { label: 'naming ServicePay-Version 2026-11-20', version: '2026-11-20' },
];

describe.each(VARIANTS)('a SPEC-only merchant $label sees what it saw before the pricing work (golden recorded at d208c38)', ({ version }) => {
  beforeEach(() => {
    requestVersion = version;
  });
  it('RECURRING: link, polling, a declined then an approved payment, renewal, pause, resume, void, cancel', async () => {
    const flow = await merchantFlow('recurring');
    const link = await createLink(flow, 'create a RECURRING link (modality given)', specLinkBody('pedido-1001', { modality: 'RECURRING' }));
    expect(link.status).toBe(200);
    const { token, subscriptionPlanId: id } = link.json;
    await status(flow, 'status before any payment', id);
    await record(flow, 'plan record before any payment', id);
    await session(flow, 'checkout session', token);
    await pay(flow, 'pay with a declined card', token, CARD.declined);
    await status(flow, 'status after the decline', id);
    const approved = await pay(flow, 'pay with the approved card', token, CARD.approved);
    await status(flow, 'status once paid', id);
    await record(flow, 'plan record once paid', id);
    await session(flow, 'checkout session once paid', token);
    await pay(flow, 'pay again once paid', token, CARD.approved);
    const next = (await status(flow, 'status before the renewal', id)).json.plan.nextChargeDate as number;
    await clock(flow, 'test clock at the next charge', next + 1000);
    await status(flow, 'status after the renewal', id);
    await planAction(flow, 'pause', pauseRoute, id, 'pause');
    await status(flow, 'status while paused', id);
    await planAction(flow, 'pause again (409)', pauseRoute, id, 'pause');
    await planAction(flow, 'resume', resumeRoute, id, 'resume', {});
    await status(flow, 'status once resumed', id);
    const txn = approved.json.subscriptionTransactionId as string;
    await flow.send('void the first charge', voidRoute, {
      method: 'POST',
      path: `/merchants/transactions/${txn}/void`,
      params: { subscriptionTransactionId: txn },
    });
    await status(flow, 'status after the void', id);
    await planAction(flow, 'cancel with a reason', cancelRoute, id, 'cancel', { reason: 'El cliente lo pidió' });
    await status(flow, 'status once cancelled', id);
    await record(flow, 'plan record once cancelled', id);
    await clock(flow, 'test clock a month later charges nothing', Date.now() + 40 * DAY);
    await flow.compare();
  });

  it('RECURRING by default: renewals declined, retried after 1, 3 and 5 days, cancelled', async () => {
    const flow = await merchantFlow('retries');
    const link = await createLink(flow, 'create a link without modality', specLinkBody('pedido-2001'));
    const { token, subscriptionPlanId: id } = link.json;
    await session(flow, 'checkout session', token);
    await pay(flow, 'pay with the card whose renewals are declined', token, CARD.renewalsDeclined);
    const due = (await status(flow, 'status once paid', id)).json.plan.nextChargeDate as number;
    await clock(flow, 'test clock the day before the due date', due - DAY);
    await clock(flow, 'test clock at the due date', due + 1000);
    await status(flow, 'status after the first declined renewal', id);
    // Retries on days 1, 3 and 5; the days after are quiet before the pricing work (the plan was
    // cancelled on day 5), and the renewal ladder's grace since (DELIBERATE below).
    for (const days of [1, 3, 5, 8, 10]) {
      await clock(flow, `test clock ${days} days after the due date`, due + days * DAY + 2000);
      await status(flow, `status ${days} days after the due date`, id);
    }
    await record(flow, 'plan record once cancelled', id);
    await session(flow, 'checkout session of the cancelled plan', token);
    await flow.compare();
  });

  it('SINGLE: an error, a PENDING payment polled until approved, COMPLETED', async () => {
    const flow = await merchantFlow('single');
    const link = await createLink(flow, 'create a SINGLE link', specLinkBody('pedido-3001', { modality: 'SINGLE', amount: 15000000 }));
    const { token, subscriptionPlanId: id } = link.json;
    await session(flow, 'checkout session', token);
    await pay(flow, 'pay with the card the processor fails', token, CARD.error);
    await status(flow, 'status after the error', id);
    const pending = await pay(flow, 'pay with the card that stays PENDING', token, CARD.pendingApproved);
    const txn = pending.json.subscriptionTransactionId as string;
    await status(flow, 'status while PENDING', id);
    await flow.send('the page polls the PENDING payment', getPaymentRoute, {
      method: 'GET',
      path: `/checkout/session/${token}/payments/${txn}`,
      params: { token, transactionId: txn },
      headers: { 'x-forwarded-for': '198.51.100.7' },
    });
    vi.setSystemTime(Date.now() + 5000);
    await flow.send('the page polls it once the processor decided', getPaymentRoute, {
      method: 'GET',
      path: `/checkout/session/${token}/payments/${txn}`,
      params: { token, transactionId: txn },
      headers: { 'x-forwarded-for': '198.51.100.7' },
    });
    await status(flow, 'status once approved', id);
    await record(flow, 'plan record once COMPLETED', id);
    await session(flow, 'checkout session once paid', token);
    await clock(flow, 'test clock a month later charges nothing', Date.now() + 40 * DAY);
    await planAction(flow, 'cancel a COMPLETED plan (409)', cancelRoute, id, 'cancel');
    await flow.compare();
  });

  it('refusals: 400, 401, 403, 404, 409 and an expired session', async () => {
    const flow = await merchantFlow('refusals');
    const other = await merchantFlow('refusals-other-merchant');
    const link = await createLink(flow, 'create a link', specLinkBody('pedido-4001'));
    const { token, subscriptionPlanId: id } = link.json;
    await createLink(flow, 'the same externalReference again (409)', specLinkBody('pedido-4001'));
    await createLink(flow, 'amount as a string (400)', { ...specLinkBody('pedido-4002'), plan: { ...specLinkBody('pedido-4002').plan, amount: '2990000' } });
    await createLink(flow, 'amount with decimals (400)', specLinkBody('pedido-4003', { amount: 2990000.5 }));
    await createLink(flow, 'no e-mail (400)', { customer: { phone: '+573001234567' }, plan: specLinkBody('pedido-4004').plan });
    await createLink(flow, 'idType without idNumber (400)', { customer: { phone: '+573001234567', email: 'ana@example.com', idType: 'CC' }, plan: specLinkBody('pedido-4005').plan });
    await createLink(flow, 'an unknown modality (400)', { ...specLinkBody('pedido-4006'), plan: { ...specLinkBody('pedido-4006').plan, modality: 'MONTHLY' } });
    await createLink(flow, 'fields SPEC does not name are ignored', { ...specLinkBody('pedido-4007'), extra: { anything: true } });
    await flow.send('no credentials (401)', statusRoute, { method: 'GET', path: `/merchants/plans/${id}/status`, params: { subscriptionPlanId: id }, headers: {} });
    await flow.send('a wrong secret (401)', statusRoute, {
      method: 'GET',
      path: `/merchants/plans/${id}/status`,
      params: { subscriptionPlanId: id },
      headers: { authorization: `${flow.headers.authorization}x` },
    });
    await flow.send("another merchant's plan status (403)", statusRoute, { method: 'GET', path: `/merchants/plans/${id}/status`, params: { subscriptionPlanId: id }, headers: other.headers });
    await flow.send("another merchant's plan record (403)", planRecordRoute, { method: 'GET', path: `/merchants/subscription-plans/${id}`, params: { id }, headers: other.headers });
    await status(flow, 'an unknown plan (404)', 'sub_0000000000000000000000AA');
    await status(flow, 'a malformed plan id (404)', 'nope');
    await session(flow, 'an unknown token (404)', 'AAAAAAAAAA');
    await session(flow, 'a malformed token (404)', 'short');
    await pay(flow, 'a card that fails Luhn (400)', token, '4242 4242 4242 4241');
    vi.setSystemTime(Date.now() + 25 * 3_600_000);
    await session(flow, 'the session a day and an hour later (expired, 400)', token);
    await pay(flow, 'paying an expired link', token, CARD.approved);
    await status(flow, 'status of the expired link', id);
    await flow.compare();
    await other.compare();
  });
});
