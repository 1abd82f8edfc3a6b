// npm run screenshots [-- --url http://localhost:3000] [--only checkout,portal-overview]
// The README's pictures (docs/screenshots/*.png), taken in the system Chromium against a running
// ServicePay (`npm run dev` or `npm start`) as the demo merchant (.data/demo-merchant.json, written
// by the first start). Each entry of SHOTS makes its page ready, then is shot at 1280×800: add a
// page by adding an entry.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from '@playwright/test';
import { demoCredentials, demoCredentialsFile } from './demo-credentials';

interface Context {
  app: string;
  demo: { apiKey: string; apiSecret: string; portal?: { email: string; password: string } };
}

interface Shot {
  name: string;
  /** Brings the page to what the picture shows. */
  open: (page: Page, ctx: Context) => Promise<void>;
}

async function newLink(page: Page, { app, demo }: Context, ref: string) {
  const res = await page.request.post(`${app}/merchants/subscription-link`, {
    headers: { Authorization: `Bearer ${demo.apiKey}:${demo.apiSecret}` },
    data: { customer: { phone: '+573001234567', email: 'ana@example.com', firstName: 'Ana' }, plan: { externalReference: `${ref}-${Date.now()}`, description: 'Plan mensual', amount: 150000 } },
  });
  if (!res.ok()) throw new Error(`creating a link answered ${res.status()}: ${await res.text()}`);
  return (await res.json()) as { url: string };
}

/** Pays a new link in the hosted checkout, as a customer would, so the portal has something to show. */
async function paidLink(page: Page, ctx: Context, ref: string, card: string, amount: number): Promise<string> {
  const res = await page.request.post(`${ctx.app}/merchants/subscription-link`, {
    headers: { Authorization: `Bearer ${ctx.demo.apiKey}:${ctx.demo.apiSecret}` },
    data: { customer: { phone: '+573001234567', email: `${ref}@example.com`, firstName: 'Ana' }, plan: { externalReference: `${ref}-${Date.now()}`, description: 'Plan mensual', amount } },
  });
  const link = (await res.json()) as { url: string; subscriptionPlanId: string };
  await page.goto(link.url);
  await page.waitForFunction(() => Object.keys(document.querySelector('#cardNumber') ?? {}).some((k) => k.startsWith('__reactProps')));
  await page.getByLabel('Número de la tarjeta').fill(card);
  await page.getByLabel('Vencimiento (MM/AA)').fill(`12/${(new Date().getUTCFullYear() + 2) % 100}`);
  await page.getByLabel('Código de seguridad (CVC)').fill('123');
  await page.getByRole('button', { name: /^Pagar/ }).click();
  await page.locator('[data-checkout-state="approved"], [data-checkout-state="declined"]').waitFor();
  return link.subscriptionPlanId;
}

/** A portal page, signing in first when the session is not there yet. */
async function portalPage(page: Page, ctx: Context, pathname: string) {
  await page.goto(`${ctx.app}${pathname}`);
  if (page.url().includes('/portal/sign-in')) {
    await signIn(page, ctx);
    await page.goto(`${ctx.app}${pathname}`);
  }
}

async function signIn(page: Page, { app, demo }: Context) {
  if (!demo.portal) throw new Error('.data/demo-merchant.json has no portal login: start once on a fresh .data/ to get one');
  await page.goto(`${app}/portal/sign-in`);
  await page.getByLabel('Correo electrónico').fill(demo.portal.email);
  await page.getByLabel('Contraseña').fill(demo.portal.password);
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await page.waitForURL(/\/portal\/(overview|activity|settings)/);
}

export const SHOTS: Shot[] = [
  {
    name: 'checkout',
    open: async (page, ctx) => {
      await page.goto((await newLink(page, ctx, 'shot-checkout')).url);
      await page.locator('[data-checkout-state="ready"]').waitFor();
    },
  },
  {
    name: 'widget',
    open: async (page, ctx) => {
      await page.goto(`${ctx.app}/demo`);
      await page.getByRole('button', { name: '1. Crear link de pago' }).click();
      await page.getByText('Link creado:').waitFor();
      await page.getByRole('button', { name: '2. Pagar suscripción' }).click();
      await page.frameLocator('dialog iframe').locator('[data-checkout-state="ready"]').waitFor();
    },
  },
  {
    name: 'portal-overview',
    open: async (page, ctx) => {
      // An empty portal makes a poor picture: a few customers pay first (one card declines).
      const cards = ['4242 4242 4242 4242', '4242 4242 4242 4242', '4111 1111 1111 1111', '4242 4242 4242 4242'];
      for (const [i, card] of cards.entries()) await paidLink(page, ctx, `cliente${i + 1}`, card, [150000, 890000, 250000, 420000][i]!);
      await signIn(page, ctx);
      await page.goto(`${ctx.app}/portal/overview`);
      await page.locator('.recharts-surface').waitFor();
    },
  },
  {
    name: 'portal-activity',
    open: async (page, ctx) => {
      await portalPage(page, ctx, '/portal/activity');
    },
  },
  {
    name: 'portal-phone',
    open: async (page, ctx) => {
      // The same portal on a 360 px phone: the sticky bar, its menu opened.
      await page.setViewportSize({ width: 360, height: 800 });
      await portalPage(page, ctx, '/portal/transactions');
      await page.getByText('Menú', { exact: true }).click();
    },
  },
  {
    name: 'manage',
    open: async (page, ctx) => {
      // A customer's page for a paid subscription, from the link the merchant creates.
      const planId = await paidLink(page, ctx, 'cliente-manage', '4242 4242 4242 4242', 150000);
      const res = await page.request.post(`${ctx.app}/merchants/subscription-plans/${planId}/manage-link`, {
        headers: { Authorization: `Bearer ${ctx.demo.apiKey}:${ctx.demo.apiSecret}` },
      });
      if (!res.ok()) throw new Error(`creating a manage link answered ${res.status()}: ${await res.text()}`);
      await page.goto(((await res.json()) as { url: string }).url);
      await page.getByRole('heading', { name: 'Reemplazar el medio de pago' }).waitFor();
    },
  },
];

async function main() {
  const { values } = parseArgs({ options: { url: { type: 'string' }, only: { type: 'string' }, out: { type: 'string' } } });
  const app = (values.url ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/+$/, '');
  const demo = demoCredentials();
  if (!demo.apiKey || !demo.apiSecret) throw new Error(`${demoCredentialsFile()} is missing: run npm run dev once first`);
  const ctx: Context = { app, demo: { ...demo, apiKey: demo.apiKey, apiSecret: demo.apiSecret } };
  const only = values.only?.split(',');
  const out = values.out ?? 'docs/screenshots';
  fs.mkdirSync(out, { recursive: true });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'es-CO', deviceScaleFactor: 1 });
    for (const shot of SHOTS.filter((s) => !only || only.includes(s.name))) {
      const page = await context.newPage();
      await shot.open(page, ctx);
      const file = path.join(out, `${shot.name}.png`);
      await page.screenshot({ path: file });
      console.log(`${file} (${Math.round(fs.statSync(file).size / 1024)} KiB)`);
      await page.close();
    }
  } finally {
    await browser.close();
  }
}

main().catch((error: Error) => {
  console.error(`error: ${error.message}`);
  process.exitCode = 1;
});
