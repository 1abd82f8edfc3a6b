import type { APIRequestContext, FrameLocator, Page, Request } from '@playwright/test';
import { SANDBOX_CARDS } from '../lib/processors/sandbox';
import { ADMIN_API_TOKEN, expect, SHORT_LIVED_URL, test as base } from './fixtures';

// What the hosted checkout journeys share: a merchant per test, links made as a merchant's
// backend makes them (docs/api.md#create-a-payment-link), the sandbox cards (docs/processors.md#the-sandbox), the plan status a merchant
// would poll (docs/api.md#plan-status), and a watch on Content-Security-Policy violations in every page.

/** docs/processors.md#the-sandbox: the sandbox's own list (lib/processors/sandbox.ts), named for what a journey sees. */
export const CARDS = {
  approved: SANDBOX_CARDS.approved,
  insufficientFunds: SANDBOX_CARDS.declined,
  processorError: SANDBOX_CARDS.error,
  pendingThenApproved: SANDBOX_CARDS.pendingApproved,
  pendingThenDeclined: SANDBOX_CARDS.pendingDeclined,
  notSupported: SANDBOX_CARDS.unsupported,
} as const;

/** An expiry two years ahead, as MM/YY. */
export const FUTURE_EXPIRY = `12/${String((new Date().getUTCFullYear() + 2) % 100).padStart(2, '0')}`;

export interface Merchant {
  merchantId: string;
  name: string;
  authorization: string;
}

export interface Link {
  token: string;
  url: string;
  expiresAt: string;
  subscriptionPlanId: string;
}

export interface LinkOptions {
  modality?: 'RECURRING' | 'SINGLE';
  amount?: number;
  firstName?: string | null;
  description?: string;
}

let counter = 0;

export const test = base.extend<{
  merchant: Merchant;
  createLink: (options?: LinkOptions) => Promise<Link>;
  cspViolations: string[];
}>({
  merchant: async ({ admin }, use) => {
    const res = await admin.post('/admin/merchants', { data: { name: 'Gimnasio Norte' } });
    expect(res.status()).toBe(201);
    const body = await res.json();
    await use({ merchantId: body.merchantId, name: body.name, authorization: `Bearer ${body.apiKey}:${body.apiSecret}` });
  },

  createLink: async ({ request, merchant }, use) => {
    await use(async (options = {}) => {
      const customer: Record<string, string> = { phone: '+573001234567', email: 'ana@example.com' };
      if (options.firstName !== null) customer.firstName = options.firstName ?? 'Ana';
      const res = await request.post('/merchants/subscription-link', {
        headers: { Authorization: merchant.authorization },
        data: {
          customer,
          plan: {
            externalReference: `e2e-${Date.now().toString(36)}-${process.pid}-${++counter}`,
            description: options.description ?? 'Plan Gimnasio',
            amount: options.amount ?? 150000,
            modality: options.modality ?? 'RECURRING',
          },
        },
      });
      expect(res.status(), await res.text()).toBe(200);
      return res.json();
    });
  },

  // Every checkout page of every journey: no Content-Security-Policy violation, ever.
  cspViolations: [
    async ({ page }, use) => {
      const violations: string[] = [];
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) => {
          console.error(`csp-violation ${e.effectiveDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`);
        });
      });
      page.on('console', (message) => {
        if (message.text().startsWith('csp-violation') || /Content Security Policy/i.test(message.text())) {
          violations.push(message.text());
        }
      });
      await use(violations);
      expect(violations, 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** The checkout as a page, or inside the widget's iframe. */
export type Checkout = Page | FrameLocator;

/** The checkout's root element and its state (docs/checkout.md#hosted-page). */
export function checkoutRoot(page: Checkout) {
  return page.locator('[data-checkout-state]');
}

export async function expectState(page: Checkout, state: string, timeout?: number) {
  await expect(checkoutRoot(page)).toHaveAttribute('data-checkout-state', state, { timeout });
}

/** Spanish labels: journeys run with the es-CO locale unless they say otherwise. */
export const LABELS = {
  cardNumber: 'Número de la tarjeta',
  cardExpiry: 'Vencimiento (MM/AA)',
  cardCvc: 'Código de seguridad (CVC)',
  cardHolder: 'Nombre del titular',
} as const;

export interface CardEntry {
  number: string;
  expiry?: string;
  cvc?: string;
  holder?: string;
}

/**
 * Waits until React has hydrated the card form. The pay button works before that too (a plain
 * form post, docs/checkout.md), so a journey of the JavaScript form waits for it explicitly.
 */
export async function expectHydrated(page: Checkout) {
  await expect
    .poll(() => page.locator('#cardNumber').evaluate((input) => Object.keys(input).some((key) => key.startsWith('__reactProps'))))
    .toBe(true);
}

export async function fillCard(page: Checkout, card: CardEntry) {
  await expectHydrated(page);
  await page.getByLabel(LABELS.cardNumber).fill(card.number);
  await page.getByLabel(LABELS.cardExpiry).fill(card.expiry ?? FUTURE_EXPIRY);
  await page.getByLabel(LABELS.cardCvc).fill(card.cvc ?? '123');
  if (card.holder !== undefined) await page.getByLabel(LABELS.cardHolder).fill(card.holder);
}

export function payButton(page: Checkout) {
  return page.getByRole('button', { name: /^Pagar/ });
}

/** The sandbox's card form without JavaScript: filled and posted as plain HTML (no hydration to wait for). */
export async function payWithoutScript(page: Page, number: string) {
  await page.getByLabel(LABELS.cardNumber).fill(number);
  await page.getByLabel(LABELS.cardExpiry).fill(FUTURE_EXPIRY);
  await page.getByLabel(LABELS.cardCvc).fill('123');
  await page.getByLabel(LABELS.cardHolder).fill('Ana Gómez');
  await payButton(page).click();
}

export async function pay(page: Checkout, card: CardEntry) {
  await fillCard(page, card);
  await payButton(page).click();
}

/** Every payment the page sends (POST …/payments) and every poll of one (GET …/payments/txn_…). */
export function watchPayments(page: Page) {
  const posts: Request[] = [];
  const polls: { at: number; url: string }[] = [];
  page.on('request', (req) => {
    const path = new URL(req.url()).pathname;
    if (req.method() === 'POST' && /^\/checkout\/session\/[^/]+\/payments$/.test(path)) posts.push(req);
    if (req.method() === 'GET' && /^\/checkout\/session\/[^/]+\/payments\/[^/]+$/.test(path)) polls.push({ at: Date.now(), url: path });
  });
  return { posts, polls };
}

export interface PlanStatus {
  plan: { status: string };
  lastTransaction?: { status: string; gatewayTransactionId: string | null; subscriptionTransactionId: string };
}

/** What the merchant's backend sees when it polls (docs/api.md#plan-status). */
export async function planStatus(request: APIRequestContext, merchant: Merchant, planId: string): Promise<PlanStatus> {
  const res = await request.get(`/merchants/plans/${planId}/status`, { headers: { Authorization: merchant.authorization } });
  expect(res.status()).toBe(200);
  return res.json();
}

/** The plan's status and its last charge's, as the merchant's backend reads them, are `expected`. */
export async function expectPlanStatus(request: APIRequestContext, merchant: Merchant, planId: string, expected: { plan: string; lastCharge: string }): Promise<PlanStatus> {
  const status = await planStatus(request, merchant, planId);
  expect({ plan: status.plan.status, lastCharge: status.lastTransaction?.status }).toEqual(expected);
  return status;
}

export { expectAccessible } from './accessibility';

/** The checkout's security headers (docs/checkout.md#embedding and the hosted-checkout issue). */
export function expectCheckoutHeaders(headers: Record<string, string>) {
  const csp = headers['content-security-policy'] ?? '';
  const directives = new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );
  expect(directives.get('default-src')).toEqual(["'self'"]);
  expect(directives.get('frame-ancestors')).toEqual(["'self'"]);
  const scripts = directives.get('script-src') ?? [];
  expect(scripts.some((s) => /^'nonce-[A-Za-z0-9+/=_-]{16,}'$/.test(s)), csp).toBe(true);
  expect(scripts).not.toContain("'unsafe-inline'");
  expect(scripts).not.toContain("'unsafe-eval'");
  expect(directives.get('object-src')).toEqual(["'none'"]);
  expect(headers['referrer-policy']).toBe('no-referrer');
  // no-store as proxy.ts sets it; a 404 is rendered by Next's not-found page, which writes its own
  // value that also says no-store ("private, no-cache, no-store, max-age=0, must-revalidate").
  expect(headers['cache-control']?.split(/,\s*/)).toContain('no-store');
  expect(headers['x-content-type-options']).toBe('nosniff');
  return scripts.find((s) => s.startsWith("'nonce-"))!.slice(7, -1);
}

/**
 * A link from the short-lived server (its links expire after SHORT_LIVED_TTL_SECONDS), made by a
 * merchant of that server, and a way to wait until it has expired.
 */
export async function createShortLivedLink(request: APIRequestContext, options: { allowedDomains?: string[] } = {}) {
  const admin = { Authorization: `Bearer ${ADMIN_API_TOKEN}` };
  const created = await request.post(`${SHORT_LIVED_URL}/admin/merchants`, {
    headers: admin,
    data: { name: 'Gimnasio Norte', allowedDomains: options.allowedDomains ?? [] },
  });
  expect(created.status()).toBe(201);
  const { apiKey, apiSecret } = await created.json();
  const res = await request.post(`${SHORT_LIVED_URL}/merchants/subscription-link`, {
    headers: { Authorization: `Bearer ${apiKey}:${apiSecret}` },
    data: {
      customer: { phone: '+573001234567', email: 'ana@example.com', firstName: 'Ana' },
      plan: { externalReference: `e2e-short-${Date.now().toString(36)}-${++counter}`, description: 'Plan Gimnasio', amount: 150000 },
    },
  });
  expect(res.status()).toBe(200);
  const link: Link = await res.json();
  return {
    ...link,
    waitUntilExpired: async () => {
      const wait = Date.parse(link.expiresAt) - Date.now() + 250;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    },
  };
}

/** A link made with the merchant's key (`data` as its backend sends it), paid in the hosted checkout with `card`: the plan's id. */
export async function payNewLink(page: Page, authorization: string, data: object, card: string, state: 'approved' | 'declined') {
  const res = await page.request.post('/merchants/subscription-link', { headers: { Authorization: authorization }, data });
  expect(res.status(), await res.text()).toBe(200);
  const link: { token: string; subscriptionPlanId: string } = await res.json();
  await page.goto(`/pay/${link.token}`);
  await pay(page, { number: card });
  await expectState(page, state);
  return link.subscriptionPlanId;
}
