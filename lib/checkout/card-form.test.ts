import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '@/db/client';
import { POST } from '@/app/pay/[token]/card/route';
import type { PaymentProcessor } from '@/lib/processors/processor';
import { CARDS, cardForm, countingSandbox, createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { call } from '@/test/http';
import { cardFormAction, formReturnOf, payWithCardForm } from './card-form';
import { getPayment } from './payments';

// The card form posted as plain HTML, without JavaScript (docs/checkout.md).

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});
afterEach(() => {
  vi.useRealTimers();
});

let ip = 0;
const FORM = 'application/x-www-form-urlencoded';
const encode = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

function formPost(token: string, body: string, { query = '', contentType = FORM, from = `198.51.100.${++ip % 250}` } = {}) {
  return new Request(`http://localhost:3000/pay/${token}/card${query}`, {
    method: 'POST',
    headers: { 'content-type': contentType, 'x-forwarded-for': from },
    body,
  });
}

async function submit(token: string, body: string, options: { processor?: PaymentProcessor; query?: string; contentType?: string; from?: string } = {}) {
  const processor = options.processor ?? countingSandbox(0).processor;
  const res = await payWithCardForm(database.db, processor, { req: formPost(token, body, options), token, clientKey: options.from ?? `k${++ip}` });
  return { status: res.status, location: res.headers.get('location') ?? '', headers: res.headers };
}

describe('POST /pay/{token}/card (the form without JavaScript)', () => {
  it('pays and answers 303 to the outcome page, which shows the approval', async () => {
    const link = await createTestLink(database.db);
    const res = await submit(link.token, encode(cardForm(CARDS.approved)));
    expect(res.status).toBe(303);
    expect(res.location).toMatch(new RegExp(`^/pay/${link.token}/payments/txn_[A-Za-z0-9]+$`));
    expect(res.headers.get('cache-control')).toBe('no-store');
    const transactionId = res.location.split('/').at(-1)!;
    expect(await getPayment(database.db, countingSandbox(0).processor, { token: link.token, transactionId })).toMatchObject({ status: 'APPROVED' });
    expect(await link.plan()).toMatchObject({ status: 'ACTIVE', customerLang: 'es' });
  });

  it('goes through the route handler the same way, and never logs the card', async () => {
    const link = await createTestLink(database.db);
    const logged = vi.spyOn(console, 'log');
    const errors = vi.spyOn(console, 'error');
    try {
      const res = await call(POST, {
        path: `/pay/${link.token}/card?lang=en`,
        params: { token: link.token },
        headers: { 'content-type': FORM, 'x-forwarded-for': '198.51.100.200' },
        body: encode(cardForm(CARDS.approved)),
      });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toMatch(new RegExp(`^/pay/${link.token}/payments/txn_\\w+\\?lang=en$`));
      // The page's language is the customer's: their e-mails are written in it.
      expect((await link.plan()).customerLang).toBe('en');
      const lines = [...logged.mock.calls, ...errors.mock.calls].flat().join('\n');
      expect(lines).toContain('/pay/[token]/card');
      for (const secret of ['4242', '12/30', link.token]) expect(lines).not.toContain(secret);
    } finally {
      logged.mockRestore();
      errors.mockRestore();
    }
  });

  it('keeps the page language and the widget parameters, and nothing else, in every redirect', async () => {
    const link = await createTestLink(database.db);
    const query = '?lang=en&embed=1&origin=https%3A%2F%2Fshop.example.com&cardNumber=4242424242424242&other=x';
    const res = await submit(link.token, encode(cardForm(CARDS.declined)), { query });
    expect(res.location).toMatch(/\?lang=en&embed=1&origin=https%3A%2F%2Fshop.example.com$/);
    expect(cardFormAction(link.token, { lang: 'es', embed: '1', cardCvc: '123' })).toBe(`/pay/${link.token}/card?lang=es&embed=1`);
  });

  it('a declined card lands on the outcome page too (the payment is recorded as declined)', async () => {
    const link = await createTestLink(database.db);
    const res = await submit(link.token, encode(cardForm(CARDS.declined)));
    const transactionId = res.location.split('/').at(-1)!;
    expect(await getPayment(database.db, countingSandbox(0).processor, { token: link.token, transactionId })).toMatchObject({ status: 'DECLINED', declineReason: 'insufficient_funds' });
  });

  it('a PENDING payment lands on its outcome page, which settles it once the processor has decided', async () => {
    const link = await createTestLink(database.db);
    const slow = countingSandbox(60_000).processor;
    const res = await submit(link.token, encode(cardForm(CARDS.pendingApproved)), { processor: slow });
    const transactionId = res.location.split('/').at(-1)!;
    expect(await getPayment(database.db, slow, { token: link.token, transactionId })).toMatchObject({ status: 'PENDING' });
    expect(await getPayment(database.db, countingSandbox(0).processor, { token: link.token, transactionId })).toMatchObject({ status: 'APPROVED' });
  });

  it.each([
    ['a bad card number', { cardNumber: '4242 4242 4242 4241' }, ['cardNumber']],
    ['an expired card and no holder', { cardExpiry: '01/20', cardHolder: '' }, ['cardExpiry', 'cardHolder']],
    ['a short CVC', { cardCvc: '1' }, ['cardCvc']],
  ])('sends %s back to the form with the field names only, charging nothing', async (_label, overrides, fields) => {
    const link = await createTestLink(database.db);
    const { processor, calls } = countingSandbox(0);
    const res = await submit(link.token, encode(cardForm(CARDS.approved, overrides)), { processor });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/pay/${link.token}?problem=card&fields=${encodeURIComponent(fields.join(','))}`);
    expect(calls.charge).toBe(0);
    expect(formReturnOf(Object.fromEntries(new URL(res.location, 'http://x').searchParams))).toEqual({ problem: 'card', fields });
  });

  it.each([
    ['a JSON body', JSON.stringify(cardForm(CARDS.approved)), 'application/json'],
    ['an empty body', '', FORM],
    ['a body over 64 KiB', `cardHolder=${'a'.repeat(70_000)}`, FORM],
  ])('sends %s back to the form without charging', async (_label, body, contentType) => {
    const link = await createTestLink(database.db);
    const { processor, calls } = countingSandbox(0);
    const res = await submit(link.token, body, { processor, contentType });
    expect(res.status).toBe(303);
    expect(res.location.startsWith(`/pay/${link.token}?problem=card`)).toBe(true);
    expect(calls.charge).toBe(0);
  });

  it('a link paid already comes back to its page (which says so), without a second charge', async () => {
    const link = await createTestLink(database.db);
    await submit(link.token, encode(cardForm(CARDS.approved)));
    const { processor, calls } = countingSandbox(0);
    const res = await submit(link.token, encode(cardForm(CARDS.approved)), { processor });
    expect(res.location).toBe(`/pay/${link.token}?problem=in_progress`);
    expect(calls.charge).toBe(0);
  });

  it('an expired or unknown link comes back to its page (the expired notice, or the 404)', async () => {
    const link = await createTestLink(database.db);
    await link.expire();
    expect((await submit(link.token, encode(cardForm(CARDS.approved)))).location).toBe(`/pay/${link.token}`);
    expect((await submit('ZZZZZZZZZZ', encode(cardForm(CARDS.approved)))).location).toBe('/pay/ZZZZZZZZZZ');
  });

  it('counts against the per-address checkout limit, and past it comes back without charging', async () => {
    const link = await createTestLink(database.db);
    const { processor, calls } = countingSandbox(0);
    const from = '198.51.100.251';
    let last = { location: '' };
    // The limit is a sliding minute: 61 posts that straddled a minute's end would count only in part.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Math.floor(Date.now() / 60_000) * 60_000 + 30_000);
    for (let i = 0; i < 61; i++) last = await submit(link.token, encode(cardForm(CARDS.approved, { cardCvc: '' })), { processor, from });
    expect(last.location).toBe(`/pay/${link.token}?problem=rate_limited`);
    expect(calls.charge).toBe(0);
  });

  it('with a processor that tokenizes in the browser, says JavaScript is needed and never reads the card', async () => {
    const link = await createTestLink(database.db);
    const { processor, calls } = countingSandbox(0);
    const res = await submit(link.token, encode(cardForm(CARDS.approved)), { processor: { ...processor, sandbox: false } });
    expect(res.location).toBe(`/pay/${link.token}?problem=javascript_required`);
    expect(calls.charge).toBe(0);
  });

  it('ignores a problem code it does not know', () => {
    expect(formReturnOf({ problem: 'other' })).toBeNull();
    expect(formReturnOf({ problem: 'card', fields: 'cardNumber,amount' })).toEqual({ problem: 'card', fields: ['cardNumber'] });
  });
});
