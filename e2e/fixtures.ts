import { type APIRequestContext, test as base } from '@playwright/test';

// What every journey shares with playwright.config.ts: where the test server listens and the
// operator token it runs with (docs/operations.md#operator-api).

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
export const BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
export const ADMIN_API_TOKEN = 'e2e-admin-token-0123456789abcdef';

/**
 * A second server of the same build whose checkout links live a few seconds, so journeys can see
 * a link expire without reaching into a database (the embedded one lives inside the server).
 */
export const SHORT_LIVED_PORT = E2E_PORT + 1;
export const SHORT_LIVED_URL = `http://127.0.0.1:${SHORT_LIVED_PORT}`;
export const SHORT_LIVED_TTL_SECONDS = 6;

/** Where the short-lived server finds "Inngest": a stub the Inngest journey runs on loopback. */
export const INNGEST_STUB = {
  port: E2E_PORT + 2,
  url: `http://127.0.0.1:${E2E_PORT + 2}`,
  signingKey: 'signkey-test-e2e0123456789abcdef0123456789abcdef',
};

/** The local double of Wompi's API (test/wompi-double.ts) the main server charges Wompi merchants through. */
export const WOMPI_DOUBLE = {
  port: E2E_PORT + 3,
  origin: `http://127.0.0.1:${E2E_PORT + 3}`,
  url: `http://127.0.0.1:${E2E_PORT + 3}/v1`,
};

/**
 * Where the main server sends customer e-mails (docs/customers.md#e-mails): a real SMTP server on
 * loopback, started with the test server (playwright.config.ts); journeys read it through e2e/mailbox.ts.
 */
export const SMTP_PORT = E2E_PORT + 4;

/**
 * The local doubles of the e-invoicing providers (test/factus-double.ts, test/alegra-double.ts,
 * docs/einvoicing.md#the-doubles), run as processes beside the main server, which issues through
 * them (FACTUS_API_URL, ALEGRA_API_URL). A journey adds its own account (`/__control/accounts`).
 */
export const FACTUS_DOUBLE = { port: E2E_PORT + 5, url: `http://127.0.0.1:${E2E_PORT + 5}` };
export const ALEGRA_DOUBLE = { port: E2E_PORT + 6, origin: `http://127.0.0.1:${E2E_PORT + 6}`, url: `http://127.0.0.1:${E2E_PORT + 6}/e-provider/col/v1` };

/** Every request to one of this app's servers (main and short-lived), by URL. */
const OWN_ORIGINS = new RegExp(`^http://127\\.0\\.0\\.1:(${E2E_PORT}|${SHORT_LIVED_PORT})/`);

export const test = base.extend<{ admin: APIRequestContext }>({
  /**
   * Each worker is a client address of its own, as a proxy would say in X-Forwarded-For
   * (lib/api/with-checkout.ts): the journeys run two at a time (playwright.config.ts), and the
   * checkout's and the sign-in's limits per address (docs/api.md#rate-limits) count each worker's
   * requests apart, as they counted the one worker's before. Added on the way to this app's servers
   * only: as a header the page sent, it would make every cross-origin request (Wompi's) preflighted.
   */
  context: async ({ context }, use, testInfo) => {
    const address = `127.0.0.${10 + testInfo.parallelIndex}`;
    // A journey that says its own address (a sign-up, limited per address) keeps it.
    await context.route(OWN_ORIGINS, (route) => {
      const headers = route.request().headers();
      return route.fallback({ headers: { ...headers, 'x-forwarded-for': headers['x-forwarded-for'] ?? address } });
    });
    await use(context);
  },
  /** An API client that presents the operator token, as an operator's script would. */
  admin: async ({ playwright }, use) => {
    const admin = await playwright.request.newContext({
      baseURL: BASE_URL,
      extraHTTPHeaders: { Authorization: `Bearer ${ADMIN_API_TOKEN}` },
    });
    await use(admin);
    await admin.dispose();
  },
});

export { expect } from '@playwright/test';
