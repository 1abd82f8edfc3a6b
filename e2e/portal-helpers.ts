import { expect, type Locator, type Page, test } from '@playwright/test';
import { expectAccessible } from './accessibility';
import { mailTo } from './mailbox';

// What the portal journeys share: a fresh merchant account per test, signed in.

export const PASSWORD = 'clave segura 2024';
let sequence = 0;

export function freshEmail(): string {
  sequence += 1;
  return `owner-${process.pid}-${Date.now()}-${sequence}@example.com`;
}

/**
 * Signs up a new merchant through the form and confirms the e-mail with the link it is sent; the
 * browser ends on Settings → API, signed in. Each sign-up comes from an address of its own
 * (X-Forwarded-For), as sign-ups are limited to 5 a minute per address.
 */
export async function signUp(page: Page, merchantName = 'Gimnasio Norte') {
  // Confirming the e-mail is two more page loads and a wait for the mailbox.
  test.info().setTimeout(test.info().timeout + 15_000);
  const email = freshEmail();
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': `10.${process.pid % 250}.${Math.floor(sequence / 250) % 250}.${(sequence % 250) + 1}` });
  await page.goto('/portal/sign-up');
  await page.getByLabel('Nombre del comercio').fill(merchantName);
  await page.getByLabel('Su nombre').fill('Ana');
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña').fill(PASSWORD);
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  await expect(page).toHaveURL(/\/portal\/check-email$/);
  const [mail] = await mailTo(email, 1);
  const link = /https?:\/\/\S+\/portal\/verify-email\?token=\S+/.exec(mail!.text ?? '')![0];
  await page.goto(link);
  await page.getByRole('button', { name: 'Confirmar mi correo' }).click();
  await expect(page).toHaveURL(/\/portal\/settings\/api$/);
  return { email };
}

/** Creates an API key in Settings → API and reads the secret shown once. */
export async function createKey(page: Page) {
  await page.goto('/portal/settings/api');
  await page.getByRole('button', { name: 'Crear clave' }).click();
  const result = page.getByRole('status').filter({ hasText: 'Clave creada' });
  await expect(result).toBeVisible();
  const codes = result.locator('pre code');
  const apiKey = (await codes.nth(0).textContent())!;
  const apiSecret = (await codes.nth(1).textContent())!;
  return { apiKey, apiSecret, authorization: `Bearer ${apiKey}:${apiSecret}` };
}

/**
 * `path` at each width: no sideways scroll of the page, nothing clipped inside a table cell or a
 * figure, axe clean. A failure names what sticks out.
 */
/** `path` at each width: nothing scrolls sideways or is clipped; axe at `axeAt` (a layout each, by default every width). */
export async function expectFits(page: Page, path: string, widths: number[], { axeAt = widths }: { axeAt?: number[] } = {}) {
  for (const width of widths) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto(path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    const outside = await page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5 || el.scrollWidth > el.clientWidth + 1)
        .map((el) => `${el.tagName.toLowerCase()}.${el.className} ${Math.round(el.getBoundingClientRect().right)} ${el.scrollWidth}/${el.clientWidth}`)
        .slice(0, 12),
    );
    expect(overflow, `${path} at ${width} px: ${outside.join(', ')}`).toBeLessThanOrEqual(0);
    const clipped = await page.evaluate(() =>
      [...document.querySelectorAll('main td, main th, main .stat')].filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent),
    );
    expect(clipped, `${path} at ${width} px`).toEqual([]);
    if (axeAt.includes(width)) await expectAccessible(page);
  }
}

export { expectAccessible };

export const linkBody = (externalReference: string) => ({
  customer: { phone: '+573001234567', email: 'ana@example.com', firstName: 'Ana' },
  plan: { externalReference, description: 'Plan mensual', amount: 150000 },
});

/** The portal form holding `field`: its own result (role status, or alert on an error) is inside it. */
export function formWith(page: Page, field: Locator): Locator {
  return page.locator('form').filter({ has: field });
}

/**
 * The error of the page's form. Next.js adds its own route announcer with role="alert" to every
 * page, so a bare getByRole('alert') is ambiguous: look inside the page's content only.
 */
export function formAlert(page: Page): Locator {
  return page.getByRole('main').locator('form').getByRole('alert');
}

/**
 * The webhook URL field of Settings → Webhooks. Its section is labelled by a heading of the same
 * words, so getByLabel would find both: this is the text box.
 */
export function webhookUrlField(page: Page, name = 'URL del webhook'): Locator {
  return page.getByRole('textbox', { name });
}
