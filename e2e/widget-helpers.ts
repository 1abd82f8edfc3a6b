import http from 'node:http';
import type { FrameLocator, Page } from '@playwright/test';
import { expect, test as base } from './checkout-helpers';
import { BASE_URL } from './fixtures';

// What the widget journeys share: a merchant's page on a second local origin (its own HTTP
// server, one port per worker in 3620..3629) that loads /widget.js with a script tag and opens the
// checkout from a button, recording every callback and every message it receives.

export const SITE_BASE_PORT = 3620;

export interface SiteOptions {
  token?: string | null;
  /** Which ServicePay server the page loads the widget from. */
  app?: string;
  /** The merchant page's <html lang>. */
  lang?: string;
  /** The script tag twice, as a careless template might. */
  twice?: boolean;
}

export interface MerchantSite {
  origin: string;
  /** `host:port`, as allowedDomains names it. */
  host: string;
  url(options?: SiteOptions): string;
}

function sitePage(query: URLSearchParams): string {
  const app = query.get('app') ?? BASE_URL;
  const script = `<script src="${app}/widget.js"></script>`;
  return `<!doctype html>
<html lang="${query.get('lang') ?? 'es-CO'}">
<head><meta charset="utf-8"><title>Gimnasio Norte</title></head>
<body style="margin:0">
<h1>Gimnasio Norte</h1>
<button id="pay" type="button">Pagar suscripción</button>
<div style="height:3000px"></div>
${script}${query.get('twice') ? script : ''}
<script>
window.events = [];
window.messages = [];
addEventListener('message', function (e) { window.messages.push({ origin: e.origin, data: e.data }); });
window.openCheckout = function () {
  var token = ${JSON.stringify(query.get('token'))};
  window.handle = ServicePay.open({
    token: token,
    onSuccess: function (r) { events.push(['success', r]); },
    onError: function (e) { events.push(['error', e]); },
    onClose: function () { events.push(['close']); },
  });
  return window.handle;
};
document.getElementById('pay').addEventListener('click', function () { window.openCheckout(); });
</script>
</body>
</html>`;
}

export type WidgetEvent = ['success', { transactionId: string; subscriptionPlanId: string; status: string }] | ['error', { code: string; message: string; transactionId?: string }] | ['close'];

/** The callbacks the merchant's page has received so far. */
export function widgetEvents(page: Page): Promise<WidgetEvent[]> {
  return page.evaluate(() => (window as unknown as { events: WidgetEvent[] }).events);
}

/** The one onSuccess payload the page received (fails when there is none). */
export async function successOf(page: Page) {
  const found = (await widgetEvents(page)).filter((e) => e[0] === 'success');
  expect(found).toHaveLength(1);
  return (found[0] as Extract<WidgetEvent, ['success', unknown]>)[1];
}

/** Messages of the widget's namespace that reached the merchant's page itself. */
export function checkoutMessages(page: Page): Promise<{ origin: string; data: { type?: string } }[]> {
  return page.evaluate(() =>
    (window as unknown as { messages: { origin: string; data: { type?: string } }[] }).messages.filter((m) => m.data?.type === 'servicepay:checkout'),
  );
}

export const test = base.extend<{ allowedDomains: string[] | null }, { site: MerchantSite }>({
  site: [
    async ({}, use, workerInfo) => {
      const port = SITE_BASE_PORT + (workerInfo.parallelIndex % 10);
      const server = http.createServer((req, res) => {
        const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
        res.writeHead(url.pathname === '/' ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end(url.pathname === '/' ? sitePage(url.searchParams) : 'not found');
      });
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
      const origin = `http://127.0.0.1:${port}`;
      await use({
        origin,
        host: `127.0.0.1:${port}`,
        url: (options = {}) => {
          const query = new URLSearchParams();
          if (options.token) query.set('token', options.token);
          if (options.app) query.set('app', options.app);
          if (options.lang) query.set('lang', options.lang);
          if (options.twice) query.set('twice', '1');
          return `${origin}/?${query}`;
        },
      });
      await new Promise((resolve) => server.close(resolve));
    },
    { scope: 'worker' },
  ],

  /** The merchant's allowedDomains; null means the merchant page's own origin. */
  allowedDomains: [null, { option: true }],

  merchant: async ({ admin, site, allowedDomains }, use) => {
    const res = await admin.post('/admin/merchants', { data: { name: 'Gimnasio Norte', allowedDomains: allowedDomains ?? [site.host] } });
    expect(res.status()).toBe(201);
    const body = await res.json();
    await use({ merchantId: body.merchantId, name: body.name, authorization: `Bearer ${body.apiKey}:${body.apiSecret}` });
  },
});

export { expect };

/** The widget's modal and the checkout inside it. */
export function widget(page: Page, name = 'Pago seguro') {
  const dialog = page.getByRole('dialog', { name });
  return { dialog, frame: page.frameLocator('dialog iframe') };
}

/**
 * Waits until the checkout in the modal is interactive: its card form hydrated (React has attached
 * its props to the input), so what a test types is handled by the form and not lost.
 */
export async function expectInteractive(frame: FrameLocator) {
  await expect
    .poll(() => frame.locator('#cardNumber').evaluate((input) => Object.keys(input).some((key) => key.startsWith('__reactProps'))))
    .toBe(true);
}
