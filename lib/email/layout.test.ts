import { type Browser, chromium } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_EMAIL_KINDS, EMAIL_KINDS, MERCHANT_EMAIL_KINDS } from '@/db/schema';
import type { CancelReason } from '@/lib/cancel-reason';
import { type CustomerEmailKind, type EmailFacts, type RenewalStage, renderEmail } from './templates';

// The merchant's webhook_disabled e-mail is lib/webhooks/disabled-notice.ts's (its own test).
const CUSTOMER_EMAIL_KINDS = EMAIL_KINDS.filter(
  (kind): kind is CustomerEmailKind => !([...MERCHANT_EMAIL_KINDS, ...ACCOUNT_EMAIL_KINDS] as readonly string[]).includes(kind),
);

// Every customer e-mail fits a 360 px phone (docs/customers.md#e-mails): each kind, each cancel
// reason and renewal stage, in both languages, with long real-world values (a 60-character
// description and merchant name, a full manage link), rendered in Chromium; nothing may scroll
// sideways. The old template printed the link as one unbreakable line, 560-580 px wide.

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
}, 30_000);
afterAll(async () => {
  await browser?.close();
});

const LONG = 'Suscripción-mensual-premium-con-envío-a-domicilio-2026-ABCDEFG'; // 60+ characters, no spaces
const facts: EmailFacts = {
  merchantName: `Tienda ${LONG}`,
  customerName: 'Ana María de los Ángeles',
  description: LONG,
  amount: 123456789,
  chargeDate: new Date('2026-11-21T15:00:00Z'),
  nextDate: new Date('2026-12-21T15:00:00Z'),
  reference: `wompi-${'1234567890'.repeat(6)}`,
  manageUrl: `https://pagos.servicepay.example.com/manage/mng_${'Ab3'.repeat(13)}X?lang=en`,
};
const reasons: CancelReason[] = [{ code: 'customer' }, { code: 'merchant' }, { code: 'merchant', text: LONG }, { code: 'renewal_failed', attempts: 4, last: 'insufficient_funds' }];
const stages: RenewalStage[] = ['issued', 'due', 'final', 'ladder'];

function everyEmail(): { name: string; html: string }[] {
  const out: { name: string; html: string }[] = [];
  for (const lang of ['es', 'en']) {
    for (const kind of CUSTOMER_EMAIL_KINDS) {
      const variants: Partial<EmailFacts>[] =
        kind === 'cancelled'
          ? reasons.map((reason) => ({ reason }))
          : kind === 'renewal_due'
            ? stages.map((stage) => ({ renewal: { url: `https://pagos.servicepay.example.com/renew/rnw_${'Zq9'.repeat(14)}`, stage, period: facts.nextDate!, expiresAt: facts.nextDate! } }))
            : kind === 'price_change'
              ? [true, false].map((now) => ({ change: { previousAmount: 99_999_999_999, effectiveAt: now ? null : facts.nextDate!, now } }))
              : kind === 'late_payment'
                ? [true, false].map((voided) => ({ voided }))
              : kind === 'trial_started' || kind === 'trial_ending'
                ? [true, false].map((noticeFollows) => ({ trial: { endsAt: facts.nextDate!, noticeFollows } }))
                : [{}];
      for (const variant of variants) {
        out.push({ name: `${kind} ${lang} ${JSON.stringify(variant).slice(0, 60)}`, html: renderEmail(kind, { ...facts, ...variant }, lang).html });
      }
    }
  }
  return out;
}

describe('every customer e-mail at 360 px', () => {
  it('has no sideways scrolling, and its button and link both lead to the page', async () => {
    const page = await browser.newPage({ viewport: { width: 360, height: 740 }, javaScriptEnabled: false });
    const emails = everyEmail();
    // receipt, renewal_failed, invoice; the variants of cancelled, renewal_due, price_change, late_payment and the two trial e-mails.
    expect(emails.length).toBe(2 * (1 + 1 + 1 + reasons.length + stages.length + 2 + 2 + 2 + 2));
    for (const email of emails) {
      await page.setContent(email.html);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, email.name).toBeLessThanOrEqual(360);
      // The button is a link, and the address under it too.
      const links = await page.locator('a').evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href));
      expect(links.length, email.name).toBe(2);
      expect(links[0], email.name).toBe(links[1]);
    }
    await page.close();
  }, 60_000);

  it('the check can fail: a line that cannot break does scroll sideways', async () => {
    const page = await browser.newPage({ viewport: { width: 360, height: 740 }, javaScriptEnabled: false });
    await page.setContent(`<!doctype html><meta name="viewport" content="width=device-width,initial-scale=1"><p style="white-space:nowrap">${facts.manageUrl}</p>`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeGreaterThan(360);
    await page.close();
  });
});
