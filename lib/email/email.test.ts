import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { deliveriesSettled } from '@/lib/unit-of-work';
import type { Database } from '@/db/client';
import { emailAttempts, emails, merchants, transactions } from '@/db/schema';
import { runRenewalSweep } from '@/lib/billing/sweep';
import { createManageLink, findManagedPlan } from '@/lib/auth/manage-links';
import { cancelByCustomer } from '@/lib/customers/self-service';
import { resetEnvForTests } from '@/lib/env';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { loadReceiptPdf } from '@/lib/receipts/receipt';
import { cancelPlan } from '@/lib/plans/lifecycle';
import { holdWebhookHandOffs, restoreWebhookQueue } from '@/test/webhook-queue';
import { CARDS, createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { installNetworkTripwire } from '@/test/network-tripwire';
import { startSmtpServer, type TestSmtpServer } from '@/test/smtp-server';
import { paidPlan as paidPlanOf } from '@/test/factories';
import { log } from '@/lib/log';
import { EMAIL_RETRY_DELAYS_MS, MAX_EMAIL_ATTEMPTS } from './attempts';
import { deliverEmail, EMAIL_SWEEP_GRACE_MS, resendGivenUpEmail, sweepEmails } from './send';
import { renderEmail } from './templates';

// Customer e-mails (docs/customers.md#e-mails): written with the change, sent after commit over
// SMTP to a real server on loopback, every attempt recorded, kept (not sent) without SMTP.

let database: Database;
let smtp: TestSmtpServer;
let tripwire: ReturnType<typeof installNetworkTripwire>;
const saved = { SMTP_URL: process.env.SMTP_URL, NODE_ENV: process.env.NODE_ENV, EMAIL_FROM: process.env.EMAIL_FROM };

function setEnv(values: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvForTests();
}

beforeAll(async () => {
  database = await useTestDatabase();
  smtp = await startSmtpServer();
  tripwire = installNetworkTripwire();
  holdWebhookHandOffs();
});
beforeEach(() => setEnv({ SMTP_URL: smtp.url, EMAIL_FROM: 'Pagos <pagos@servicepay.test>' }));
afterEach(async () => {
  await deliveriesSettled();
  smtp.received.length = 0;
  expect(tripwire.violations).toEqual([]);
});
afterAll(async () => {
  setEnv(saved);
  restoreWebhookQueue();
  tripwire.uninstall();
  await smtp.close();
});

const sandbox = createSandboxProcessor({ pendingMs: 0 });
const emailsOf = (planId: string) => database.db.select().from(emails).where(eq(emails.planId, planId)).orderBy(emails.id);
const attemptsOf = (emailId: string) => database.db.select().from(emailAttempts).where(eq(emailAttempts.emailId, emailId));
const manageLinkIn = (text: string) => /https?:\/\/\S+\/manage\/(mng_[0-9A-Za-z]{40})/.exec(text)?.[1];

async function paidPlan(card = CARDS.approved, lang?: 'es' | 'en') {
  const link = await paidPlanOf(database.db, { card, lang, processor: sandbox });
  await deliveriesSettled();
  return link;
}

describe('the customer e-mails, over SMTP', () => {
  it('a receipt after the first approval, then a failed-renewal notice with the retry date and a working manage link', async () => {
    const link = await paidPlan(CARDS.renewalsDecline);
    const [receipt] = await smtp.waitFor(1);
    expect(receipt!.to).toMatchObject({ value: [{ address: 'ana@example.com' }] });
    expect(receipt!.from).toMatchObject({ value: [{ address: 'pagos@servicepay.test', name: 'Pagos' }] });
    expect(receipt!.subject).toBe('Recibo de su pago a Tienda de prueba');
    expect(receipt!.text).toContain('Recibimos su pago de $ 1.500 por «Plan mensual»');
    expect(receipt!.html).toContain('Gestionar mi suscripción');
    const receiptToken = manageLinkIn(receipt!.text!);
    expect((await findManagedPlan(database.db, receiptToken!))?.plan.id).toBe(link.subscriptionPlanId);
    expect(receipt!.html).toContain(`/manage/${receiptToken}`);
    // docs/customers.md#receipts: the receipt PDF rides along, the very bytes the manage page serves.
    const [first] = await database.db.select().from(transactions).where(eq(transactions.planId, link.subscriptionPlanId));
    const pdf = await loadReceiptPdf(database.db, { transactionId: first!.id, planId: link.subscriptionPlanId });
    expect(receipt!.attachments.map((a) => [a.filename, a.contentType])).toEqual([[`recibo-${first!.id}.pdf`, 'application/pdf']]);
    expect(Buffer.compare(receipt!.attachments[0]!.content, pdf!.pdf)).toBe(0);

    const due = (await link.plan()).nextChargeDate!;
    await runRenewalSweep(database.db, sandbox, { now: new Date(due.getTime() + 1000) });
    await deliveriesSettled();
    const [, notice] = await smtp.waitFor(2);
    const retry = (await link.plan()).nextChargeDate!;
    const retryDate = new Intl.DateTimeFormat('es-CO', { dateStyle: 'long', timeZone: 'America/Bogota' }).format(retry);
    expect(notice!.subject).toContain('No pudimos cobrar su suscripción a Tienda de prueba');
    expect(notice!.text).toContain(`Lo intentaremos de nuevo el ${retryDate}`);
    expect(notice!.text).toContain('Actualizar mi medio de pago: http');
    expect((await findManagedPlan(database.db, manageLinkIn(notice!.text!)!))?.plan.id).toBe(link.subscriptionPlanId);

    const rows = await emailsOf(link.subscriptionPlanId);
    expect(rows.map((e) => [e.kind, e.sentAt !== null, e.attempts])).toEqual([
      ['receipt', true, 1],
      ['renewal_failed', true, 1],
    ]);
    const [attempt] = await attemptsOf(rows[0]!.id);
    expect(attempt).toMatchObject({ transport: 'smtp', ok: true, error: null, response: expect.stringMatching(/^250/) });
  });

  it('a cancellation confirmation when the merchant cancels, with the reason', async () => {
    const link = await paidPlan();
    await smtp.waitFor(1);
    await cancelPlan(database.db, { merchantId: link.merchant.merchantId, planId: link.subscriptionPlanId }, 'Pedido del cliente');
    await deliveriesSettled();
    const [, cancelled] = await smtp.waitFor(2);
    expect(cancelled!.subject).toContain('Su suscripción a Tienda de prueba fue cancelada');
    expect(cancelled!.text).toContain('Motivo que indicó Tienda de prueba: Pedido del cliente');
  });

  it("says why in the customer's language: the customer's own cancel, the merchant's without a reason, the last failed retry", async () => {
    const byCustomer = await paidPlan();
    const manage = await createManageLink(database.db, await byCustomer.plan(), { source: 'merchant' });
    expect((await cancelByCustomer(database.db, new URL(manage.url).pathname.split('/').pop()!)).emailed).toBe(true);
    const byMerchant = await paidPlan();
    await cancelPlan(database.db, { merchantId: byMerchant.merchant.merchantId, planId: byMerchant.subscriptionPlanId });
    const byRenewals = await paidPlan(CARDS.renewalsDecline);
    // The ladder off: the last failed retry cancels (with it on, a renewal link follows instead).
    await database.db.update(merchants).set({ renewalLadder: false }).where(eq(merchants.id, byRenewals.merchant.merchantId));
    const due = (await byRenewals.plan()).nextChargeDate!;
    for (const day of [0, 1, 3, 5]) await runRenewalSweep(database.db, sandbox, { now: new Date(due.getTime() + day * 86400_000 + 1000) });
    expect((await byRenewals.plan()).cancelReason).toMatch(/^Renewal failed 4 times/);
    await deliveriesSettled();
    const cancellationOf = async (planId: string) => (await emailsOf(planId)).find((e) => e.kind === 'cancelled')!;
    const lines = {
      customer: 'Usted la canceló desde la página de su suscripción.',
      merchant: 'Tienda de prueba la canceló.',
      renewals: 'La cancelamos porque no pudimos hacer el cobro después de 4 intentos seguidos.',
    };
    for (const [link, line] of [[byCustomer, lines.customer], [byMerchant, lines.merchant], [byRenewals, lines.renewals]] as const) {
      const email = await cancellationOf(link.subscriptionPlanId);
      expect(email.text).toContain(line);
      expect(email.html).toContain(line);
      // No English reason, and none of the stored text, in a Spanish e-mail.
      expect(`${email.subject}\n${email.text}\n${email.html}`).not.toMatch(/Cancelled by|Renewal failed|insufficient_funds|Reason/);
    }
  });

  it('cancelling a plan that was never paid e-mails no one', async () => {
    const pending = await createTestLink(database.db);
    await cancelPlan(database.db, { merchantId: pending.merchant.merchantId, planId: pending.subscriptionPlanId }, 'Pedido duplicado');
    const byCustomer = await createTestLink(database.db);
    const manage = await createManageLink(database.db, await byCustomer.plan(), { source: 'merchant' });
    expect((await cancelByCustomer(database.db, new URL(manage.url).pathname.split('/').pop()!)).emailed).toBe(false);
    await deliveriesSettled();
    expect(await emailsOf(pending.subscriptionPlanId)).toEqual([]);
    expect(await emailsOf(byCustomer.subscriptionPlanId)).toEqual([]);
    expect((await byCustomer.plan()).status).toBe('CANCELLED');
  });

  it('SMTP down: the attempt is recorded as failed, and the sweeper sends the e-mail once the server is back', async () => {
    const down = await startSmtpServer();
    const port = down.port;
    await down.close();
    setEnv({ SMTP_URL: `smtp://127.0.0.1:${port}` });
    const link = await paidPlan();
    const [email] = await emailsOf(link.subscriptionPlanId);
    expect(email).toMatchObject({ kind: 'receipt', sentAt: null, attempts: 1 });
    const [failed] = await attemptsOf(email!.id);
    expect(failed).toMatchObject({ ok: false, transport: 'smtp', error: expect.stringMatching(/ECONNREFUSED|ESOCKET|ECONNECTION/) });

    const back = await startSmtpServer(port);
    try {
      // Not before its grace period: the normal path may still be sending it.
      expect(await sweepEmails(database.db, new Date())).toBe(0);
      expect(await sweepEmails(database.db, new Date(Date.now() + EMAIL_SWEEP_GRACE_MS + 1000))).toBe(1);
      await back.waitFor(1);
      expect(back.received[0]!.subject).toContain('Recibo');
      expect((await attemptsOf(email!.id)).map((a) => a.ok)).toEqual([false, true]);
      // Sent once: a second sweep or delivery finds nothing to do.
      expect(await deliverEmail(database.db, email!.id)).toBe('skipped');
    } finally {
      await back.close();
    }
  });

  it('without SMTP outside production: kept (an attempt says so), never sent anywhere', async () => {
    setEnv({ SMTP_URL: undefined });
    const link = await paidPlan();
    const [email] = await emailsOf(link.subscriptionPlanId);
    expect(email!.sentAt).not.toBeNull();
    expect(await attemptsOf(email!.id)).toMatchObject([{ transport: 'kept', ok: true }]);
    expect(smtp.received).toEqual([]);
  });

  it('without SMTP in production: a failed attempt, and the e-mail waits', async () => {
    setEnv({ SMTP_URL: undefined, NODE_ENV: 'production', BETTER_AUTH_SECRET: 'x'.repeat(40) });
    try {
      const link = await paidPlan();
      const [email] = await emailsOf(link.subscriptionPlanId);
      expect(email!.sentAt).toBeNull();
      expect(await attemptsOf(email!.id)).toMatchObject([{ ok: false, error: expect.stringContaining('SMTP_URL') }]);
    } finally {
      setEnv({ NODE_ENV: saved.NODE_ENV, BETTER_AUTH_SECRET: undefined });
    }
  });
});

describe('an SMTP outage', () => {
  const isMessage = (emailId: string) => (mail: { messageId?: string }) => mail.messageId === `<${emailId}@servicepay>`;
  /** A closed loopback port, where the SMTP server comes back later. */
  async function downSmtp() {
    const probe = await startSmtpServer();
    await probe.close();
    setEnv({ SMTP_URL: `smtp://127.0.0.1:${probe.port}` });
    return probe.port;
  }

  /** Sweeps on a test clock from `start` in `stepMs` steps until `untilMs` later; answers when `emailId` was tried (ms after start). */
  async function sweepUntil(emailId: string, start: number, untilMs: number, stepMs: number, tried: number[]) {
    let seen = (await attemptsOf(emailId)).length;
    for (let at = stepMs; at <= untilMs; at += stepMs) {
      await sweepEmails(database.db, new Date(start + at));
      const now = (await attemptsOf(emailId)).length;
      for (; seen < now; seen++) tried.push(at);
    }
  }

  it('of 10 minutes loses nothing: retried with growing waits, sent once the server is back', async () => {
    const port = await downSmtp();
    const start = Date.now();
    const link = await paidPlan();
    const [email] = await emailsOf(link.subscriptionPlanId);
    expect(email).toMatchObject({ sentAt: null, attempts: 1 });
    const tried: number[] = [0];
    // The in-process sweeper's rhythm, 15 s, through the outage.
    await sweepUntil(email!.id, start, 10 * 60_000, 15_000, tried);
    expect((await emailsOf(link.subscriptionPlanId))[0]!.sentAt).toBeNull();
    // Each retry waited its delay (30 s, 1, 2, 5 minutes), and at most one sweep more.
    expect(tried).toHaveLength(5);
    tried.slice(1).forEach((at, i) => {
      expect(at - tried[i]!).toBeGreaterThanOrEqual(EMAIL_RETRY_DELAYS_MS[i]!);
      expect(at - tried[i]!).toBeLessThanOrEqual(EMAIL_RETRY_DELAYS_MS[i]! + 15_000);
    });
    const back = await startSmtpServer(port);
    try {
      await sweepUntil(email!.id, start, 30 * 60_000, 15_000, tried);
      // E-mails of earlier tests still waiting may go out too: this test counts its own.
      expect(back.received.filter(isMessage(email!.id))).toHaveLength(1);
      expect(back.received.find(isMessage(email!.id))!.subject).toContain('Recibo');
      const attempts = await attemptsOf(email!.id);
      expect(attempts.map((a) => a.ok)).toEqual([false, false, false, false, false, true]);
      expect((await emailsOf(link.subscriptionPlanId))[0]!.sentAt).not.toBeNull();
    } finally {
      await back.close();
    }
  });

  it('of more than a day: tried for at least 24 hours, then given up with a truthful log, and the portal can send it again', async () => {
    const port = await downSmtp();
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(log, 'error').mockImplementation(() => {});
    const start = Date.now();
    const link = await paidPlan();
    const [email] = await emailsOf(link.subscriptionPlanId);
    const tried: number[] = [0];
    // Sweeps five minutes apart: 432 sweeps instead of 2,160 a minute apart, which took over 20 s
    // on a loaded machine. Each sweep tries an e-mail at most once, so the early waits (30 s to
    // 5 minutes) read as five minutes; the day-long promise is what this test holds.
    await sweepUntil(email!.id, start, 36 * 3_600_000, 5 * 60_000, tried);
    const row = (await emailsOf(link.subscriptionPlanId))[0]!;
    expect(row).toMatchObject({ sentAt: null, attempts: MAX_EMAIL_ATTEMPTS, claimedUntil: null });
    expect(tried).toHaveLength(MAX_EMAIL_ATTEMPTS);
    expect(tried.at(-1)! - tried[0]!).toBeGreaterThanOrEqual(24 * 3_600_000);
    // Each wait at least as long as the one before.
    const waits = tried.slice(1).map((at, i) => at - tried[i]!);
    expect(waits).toEqual([...waits].sort((a, b) => a - b));
    // Every failure but the last says when it is tried again; the last says nothing is left.
    const mine = (spy: typeof warn) => spy.mock.calls.filter(([, fields]) => (fields as { emailId?: string })?.emailId === email!.id);
    expect(mine(warn)).toHaveLength(MAX_EMAIL_ATTEMPTS - 1);
    expect(mine(warn).every(([message, fields]) => message === 'e-mail not sent; it will be tried again' && 'nextAttemptAt' in (fields as object))).toBe(true);
    expect(mine(error)).toEqual([['e-mail not sent, and no attempt is left: the plan page in the portal offers to send it again', expect.objectContaining({ attempt: MAX_EMAIL_ATTEMPTS })]]);
    warn.mockRestore();
    error.mockRestore();

    // Given up: the sweeper leaves it; another merchant cannot send it; its own merchant can.
    const other = await createTestLink(database.db);
    await expect(resendGivenUpEmail(database.db, other.merchant.merchantId, email!.id)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(resendGivenUpEmail(database.db, link.merchant.merchantId, 'eml_missing')).rejects.toMatchObject({ code: 'not_found' });
    const back = await startSmtpServer(port);
    try {
      await sweepEmails(database.db, new Date(start + 40 * 3_600_000));
      expect(await attemptsOf(email!.id)).toHaveLength(MAX_EMAIL_ATTEMPTS);
      expect(await resendGivenUpEmail(database.db, link.merchant.merchantId, email!.id)).toEqual({ status: 'sent' });
      expect(back.received.filter(isMessage(email!.id))).toHaveLength(1);
      // Sent: a second press sends nothing.
      expect(await resendGivenUpEmail(database.db, link.merchant.merchantId, email!.id)).toEqual({ status: 'skipped' });
    } finally {
      await back.close();
    }
  });

  it('a resend of an e-mail still on its schedule sends nothing and leaves the schedule alone', async () => {
    await downSmtp();
    const link = await paidPlan();
    const [email] = await emailsOf(link.subscriptionPlanId);
    expect(await resendGivenUpEmail(database.db, link.merchant.merchantId, email!.id)).toEqual({ status: 'skipped' });
    expect(await attemptsOf(email!.id)).toHaveLength(1);
  });
});

describe('the templates', () => {
  const facts = {
    merchantName: 'Tienda <b>"Ñandú"</b> & Cía',
    customerName: 'Ana',
    description: 'Plan <script>alert(1)</script>',
    amount: 150050,
    chargeDate: new Date('2026-11-21T15:00:00Z'),
    nextDate: new Date('2026-11-24T15:00:00Z'),
    manageUrl: 'https://pay.example.com/manage/mng_abc?x=1&y=2',
  };

  it('escape what the merchant and the plan say in HTML, and keep it readable in plain text', () => {
    const mail = renderEmail('renewal_failed', facts);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).toContain('Tienda &lt;b&gt;&quot;Ñandú&quot;&lt;/b&gt; &amp; Cía');
    expect(mail.html).toContain('href="https://pay.example.com/manage/mng_abc?x=1&amp;y=2"');
    expect(mail.text).toContain('Plan <script>alert(1)</script>');
    expect(mail.text).toContain('$ 1.500,50');
    expect(mail.text).toContain('24 de noviembre de 2026');
    expect(renderEmail('renewal_failed', facts, 'en').text).toContain('November 24, 2026');
  });

  it("say a plan's interval when it is not monthly (docs/billing.md#intervals)", () => {
    expect(renderEmail('cancelled', facts).text).toContain('($ 1.500,50 al mes)');
    expect(renderEmail('cancelled', { ...facts, interval: { unit: 'month', count: 3 } }).text).toContain('($ 1.500,50 cada 3 meses)');
    expect(renderEmail('cancelled', { ...facts, interval: { unit: 'week', count: 1 } }, 'en').text).toContain('($ 1.500,50 every week)');
  });

  it("render every cancel reason code in the customer's language; a merchant's own reason as written", () => {
    const reasons = [{ code: 'customer' }, { code: 'merchant' }, { code: 'renewal_failed', attempts: 4, last: 'insufficient_funds' }] as const;
    for (const reason of reasons) {
      const es = renderEmail('cancelled', { ...facts, reason }, 'es');
      const en = renderEmail('cancelled', { ...facts, reason }, 'en');
      expect(`${es.text}\n${es.html}`).not.toMatch(/Cancelled|Renewal|Reason|insufficient|You /);
      expect(`${en.text}\n${en.html}`).not.toMatch(/Motivo|cancel[óa]|intentos|Usted/);
    }
    expect(renderEmail('cancelled', { ...facts, reason: { code: 'merchant', text: 'Cierre del local' } }, 'en').text).toContain('Reason given by Tienda <b>"Ñandú"</b> & Cía: Cierre del local');
  });

  it('write each kind in one language: English for en, Spanish for es, for none and for any other value', () => {
    for (const kind of ['receipt', 'renewal_failed', 'cancelled'] as const) {
      const en = renderEmail(kind, facts, 'en');
      expect(en.text.startsWith('Hello Ana,')).toBe(true);
      expect(en.html).toContain('<html lang="en">');
      expect(`${en.subject}\n${en.text}\n${en.html}`).not.toMatch(/Hola|suscripción|Recibe este correo/);
      for (const lang of ['es', undefined, null, 'fr', 'EN', ''] as const) {
        const es = renderEmail(kind, facts, lang);
        expect(es.text.startsWith('Hola, Ana:')).toBe(true);
        expect(es.html).toContain('<html lang="es-CO">');
        expect(`${es.subject}\n${es.text}\n${es.html}`).not.toMatch(/Hello|subscription|You receive this e-mail/);
      }
    }
  });
});

describe("the customer's language, from the checkout to every e-mail", () => {
  /** Pays in `lang`, declines the first renewal, then cancels: the three e-mails, as received. */
  async function threeEmails(lang?: 'es' | 'en') {
    const link = await paidPlan(CARDS.renewalsDecline, lang);
    const due = (await link.plan()).nextChargeDate!;
    // The sweep renews the other tests' plans too: only this plan's e-mails count.
    await runRenewalSweep(database.db, sandbox, { now: new Date(due.getTime() + 1000) });
    await deliveriesSettled();
    await cancelPlan(database.db, { merchantId: link.merchant.merchantId, planId: link.subscriptionPlanId }, 'Pedido del cliente');
    await deliveriesSettled();
    // In the order they were about (the renewal's e-mail is dated at the sweep's later clock).
    const order = ['receipt', 'renewal_failed', 'cancelled'];
    const rows = (await emailsOf(link.subscriptionPlanId)).sort((x, y) => order.indexOf(x.kind) - order.indexOf(y.kind));
    const ids = rows.map((e) => `<${e.id}@servicepay>`);
    expect(ids).toHaveLength(3);
    await expect.poll(() => smtp.received.filter((m) => ids.includes(m.messageId ?? '')).length).toBe(3);
    const mails = ids.map((id) => smtp.received.find((m) => m.messageId === id)!);
    return { link, mails: mails.map((m) => ({ subject: m.subject ?? '', all: `${m.subject}\n${m.text}\n${m.html}`, text: m.text ?? '', html: String(m.html) })) };
  }

  const IN = {
    en: {
      subjects: ['Receipt for your payment to Tienda de prueba', 'We could not charge your subscription to Tienda de prueba', 'Your subscription to Tienda de prueba was cancelled'],
      other: /Hola|suscripción|Recibe este correo/,
      html: '<html lang="en">',
      reason: 'Reason given by Tienda de prueba: Pedido del cliente',
    },
    es: {
      subjects: ['Recibo de su pago a Tienda de prueba', 'No pudimos cobrar su suscripción a Tienda de prueba', 'Su suscripción a Tienda de prueba fue cancelada'],
      other: /Hello|subscription|You receive this e-mail/,
      html: '<html lang="es-CO">',
      reason: 'Motivo que indicó Tienda de prueba: Pedido del cliente',
    },
  };

  for (const lang of ['en', 'es', undefined] as const) {
    it(`a plan paid in ${lang ?? 'no recorded language'} gets its receipt, failed-renewal notice and cancellation in ${lang === 'en' ? 'English' : 'Spanish'} only`, async () => {
      const expected = IN[lang ?? 'es'];
      const { link, mails } = await threeEmails(lang);
      expect((await link.plan()).customerLang).toBe(lang ?? 'es');
      expect(mails.map((m) => m.subject)).toEqual(expected.subjects);
      for (const mail of mails) {
        expect(mail.all).not.toMatch(expected.other);
        expect(mail.html).toContain(expected.html);
        // Its manage link opens the page in English; a Spanish one needs no `?lang=`.
        if (lang === 'en') expect(mail.text).toMatch(/\/manage\/mng_[0-9A-Za-z]{40}\?lang=en\b/);
        else expect(mail.text).not.toContain('?lang=');
      }
      expect(mails[2]!.text).toContain(expected.reason);
    });
  }
});
