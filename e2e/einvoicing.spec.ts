import type { APIRequestContext, Page } from '@playwright/test';
import { DIAN_TEST_RESOLUTION } from '../lib/einvoicing/dian-test-range';
import { nitCheckDigit } from '../lib/einvoicing/nit';
import { ServicePay } from '../packages/node/src/index';
import { ALEGRA_DOUBLE_ACCOUNT } from '../test/alegra-double';
import { FACTUS_DOUBLE_ACCOUNT } from '../test/factus-double';
import { CARDS, expectState, fillCard, pay, payButton, test } from './checkout-helpers';
import { ALEGRA_DOUBLE, BASE_URL, expect, FACTUS_DOUBLE } from './fixtures';
import { mailTo } from './mailbox';
import { createKey, signUp } from './portal-helpers';
import { acceptConsent, useWompi } from './wompi-helpers';

// Electronic invoicing from outside (docs/einvoicing.md), one journey run on each provider's
// double at 360 px: the merchant turns it on in Settings → Facturación and "Probar" says the
// credentials work; a customer pays a weekly plan with a 20 % coupon on the sandbox, asking for the
// invoice in a company's name (NIT); the receipt on the loopback SMTP server carries the invoice's
// number, CUFE and DIAN's link; the merchant's test clock renews the plan; the portal's Invoices
// page lists both invoices ISSUED for what was charged; a void yields a credit note. Factus runs
// once more with the merchant on the Wompi double, where charges and the void settle by Wompi's events.

test.use({ locale: 'es-CO', viewport: { width: 360, height: 800 } });

const MINUTE = 60_000;
/** A weekly price of 49 900 COP, 20 % off on every charge: 39 920 COP charged. */
const PRICE = 4_990_000;
const CHARGED = 3_992_000;
const BUYER_NIT = '901234567';

interface Provider {
  name: 'Factus' | 'Alegra';
  /** A fresh account at the double (its /__control/accounts), filled into the portal's form. */
  turnOn(page: Page, request: APIRequestContext, id: string): Promise<void>;
}

const fields = async (page: Page, card: string, values: Record<string, string | number>) => {
  const form = page.locator(`section[aria-labelledby="${card}"]`);
  for (const [label, value] of Object.entries(values)) await form.getByLabel(label, { exact: true }).fill(String(value));
  await form.getByLabel('IVA incluido en los precios').selectOption('19');
  await form.getByRole('button', { name: 'Guardar y activar' }).click();
  await expect(form.getByRole('status')).toHaveText('Guardado. Las próximas facturas se emiten con estos datos.');
};

const PROVIDERS: Provider[] = [
  {
    name: 'Factus',
    async turnOn(page, request, id) {
      const account = { ...FACTUS_DOUBLE_ACCOUNT, clientId: `client-${id}`, clientSecret: `secret-${id}`, username: `${id}@factus.double` };
      expect((await request.post(`${FACTUS_DOUBLE.url}/__control/accounts`, { data: account })).status()).toBe(204);
      await fields(page, 'einvoicing-factus', { 'Client ID': account.clientId, 'Client secret': account.clientSecret, Usuario: account.username, Contraseña: account.password });
    },
  },
  {
    name: 'Alegra',
    async turnOn(page, request, id) {
      const account = { ...ALEGRA_DOUBLE_ACCOUNT, token: `token-${id}`, companyId: `company-${id}` };
      expect((await request.post(`${ALEGRA_DOUBLE.origin}/__control/accounts`, { data: account })).status()).toBe(204);
      const r = DIAN_TEST_RESOLUTION;
      await fields(page, 'einvoicing-alegra', {
        Token: account.token,
        'ID de la empresa': account.companyId,
        'Número de resolución': r.number,
        Prefijo: r.prefix,
        Desde: r.from,
        Hasta: r.to,
        'Vigente desde (AAAA-MM-DD)': r.startDate,
        'Vigente hasta (AAAA-MM-DD)': r.endDate,
        'Clave técnica': r.technicalKey,
      });
    },
  },
];

/** The portal's Invoices page, one line per document: kind, status, total. */
async function invoiceRows(page: Page): Promise<string[]> {
  await page.goto('/portal/invoices');
  const rows = page.locator('table[aria-labelledby="invoices-list"] tbody tr');
  // Kind, status and total (the number, third, differs per run).
  return (await rows.evaluateAll((trs) => trs.map((tr) => [0, 1, 3].map((i) => tr.querySelectorAll('td')[i]?.textContent?.trim()).join(' | ')))).sort();
}

// Each provider on each processor: the sandbox and the Wompi double.
const RUNS = PROVIDERS.flatMap((provider) => [false, true].map((wompi) => ({ provider, wompi })));

for (const { provider, wompi } of RUNS) {
  test(`${provider.name} on the ${wompi ? 'Wompi double' : 'sandbox'}: a merchant turns it on, a company's invoice, its receipt, a renewal and a void's credit note`, async ({ page, request, admin }) => {
    test.setTimeout(90_000);
    const stamp = `${provider.name.toLowerCase()}-${wompi ? 'wompi-' : ''}${Date.now().toString(36)}-${process.pid}`;
    await signUp(page);
    const key = await createKey(page);
    const servicepay = new ServicePay({ apiKey: key.apiKey, apiSecret: key.apiSecret, baseUrl: BASE_URL });

    // Settings → Facturación: the provider's credentials, then "Probar", which issues nothing.
    await page.goto('/portal/settings/invoicing');
    await provider.turnOn(page, request, stamp);
    await expect(page.getByTestId('einvoicing-state')).toHaveText(`Activa con ${provider.name}, IVA 19 %.`);
    await page.locator('section[aria-labelledby="einvoicing-test"]').getByRole('button', { name: 'Probar' }).click();
    await expect(page.locator('section[aria-labelledby="einvoicing-test"]').getByRole('status')).toHaveText('Las credenciales funcionan. No se emitió ninguna factura.');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    // A weekly plan with a 20 % coupon; the customer asks for the invoice in a company's name.
    const coupon = await servicepay.coupons.create({ percentOff: 20, duration: 'forever' });
    const email = `factura-${stamp}@example.com`;
    const link = await servicepay.links.create({
      customer: { phone: '+573001234567', email, firstName: 'Ana' },
      plan: { externalReference: stamp, description: 'Plan semanal', amount: PRICE, interval: { unit: 'week', count: 1 }, coupon: coupon.id },
    });
    const planId = link.subscriptionPlanId;
    if (wompi) await useWompi(request, admin, (await servicepay.plans.retrieve(planId)).merchantId);
    await page.goto(link.url);
    await page.getByText('Factura a nombre de… (opcional)').click();
    await page.getByLabel('Tipo de documento').selectOption('NIT');
    await page.getByLabel('Número de documento').fill(BUYER_NIT);
    await page.getByLabel('Nombre o razón social').fill('Empresa de Pruebas SAS');
    await page.getByRole('button', { name: 'Guardar datos de facturación' }).click();
    await expect(page.getByTestId('buyer-outcome')).toHaveText(`Listo: la factura saldrá a nombre de Empresa de Pruebas SAS (NIT ${BUYER_NIT}-${nitCheckDigit(BUYER_NIT)}).`);
    if (wompi) {
      await fillCard(page, { number: '4242 4242 4242 4242', cvc: '123', holder: 'Ana Gómez' });
      await acceptConsent(page);
      await payButton(page).click();
    } else {
      await pay(page, { number: CARDS.approved, holder: 'Ana Gómez' });
    }
    await expectState(page, 'approved', 15_000);
    expect((await servicepay.plans.status(planId)).lastTransaction?.amount).toBe(CHARGED);

    // The receipt waits for the invoice and carries its number, CUFE and DIAN's link.
    const [receipt] = await mailTo(email, 1);
    const [first] = (await servicepay.invoices.list({ subscriptionPlanId: planId })).data;
    expect(first).toMatchObject({ kind: 'INVOICE', status: 'ISSUED', total: CHARGED });
    expect(receipt!.subject).toBe('Recibo de su pago a Gimnasio Norte');
    for (const fact of [`Factura electrónica: ${first!.number}`, `CUFE: ${first!.cufe}`, `Consúltela en la DIAN: ${first!.qrUrl}`]) expect(receipt!.text).toContain(fact);
    expect(first!.qrUrl).toMatch(/^https:\/\/catalogo-vpfe-hab\.dian\.gov\.co\//);

    // The merchant's test clock renews it a week on.
    const due = (await servicepay.plans.retrieve(planId)).nextChargeDate!;
    const clock = await servicepay.testClock.advance(new Date(due + MINUTE));
    expect(clock.lastAdvance!.transactionIds).toHaveLength(1);
    const renewal = clock.lastAdvance!.transactionIds[0]!;
    // Wompi's charge settles by its event, a moment later.
    await expect.poll(async () => (await servicepay.plans.status(planId)).lastTransaction).toMatchObject({ subscriptionTransactionId: renewal, status: 'APPROVED', amount: CHARGED });

    // Both invoices ISSUED, each for what was charged.
    const issued = ['Factura | Emitida | $ 39.920', 'Factura | Emitida | $ 39.920'];
    await expect.poll(() => invoiceRows(page)).toEqual(issued);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    // A void of the renewal: its credit note, issued, for the same total.
    const voided = await request.post(`/merchants/transactions/${renewal}/void`, { headers: { Authorization: key.authorization } });
    // Wompi takes the void and confirms it by its event (a 409 says so); the sandbox voids at once.
    expect([200, ...(wompi ? [409] : [])], await voided.text()).toContain(voided.status());
    await expect.poll(() => invoiceRows(page)).toEqual([...issued, 'Nota crédito | Emitida | $ 39.920'].sort());
    const documents = (await servicepay.invoices.list({ subscriptionPlanId: planId })).data;
    const note = documents.find((d) => d.kind === 'CREDIT_NOTE')!;
    expect(note.invoiceId).toBe(documents.find((d) => d.kind === 'INVOICE' && d.subscriptionTransactionId === renewal)!.id);
    expect(note.cufe).toMatch(/^[0-9a-f]{96}$/);
  });
}
