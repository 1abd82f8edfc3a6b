import type { APIRequestContext, FrameLocator, Page } from '@playwright/test';
import { FACTUS_DOUBLE_ACCOUNT } from '../test/factus-double';
import { CARDS, expect, expectAccessible, expectState, type Merchant, pay, payWithoutScript, planStatus, test } from './checkout-helpers';
import { FACTUS_DOUBLE } from './fixtures';
import { expectInteractive, successOf, test as widgetTest, widget } from './widget-helpers';

// "Factura a nombre de…" (docs/einvoicing.md#the-buyer) as a customer meets it at 360 px: on the
// hosted page before paying, with and without JavaScript and in the widget's modal, and on the
// manage page for later invoices. A bad field comes back named in Spanish with nothing changed; the
// first invoice, issued through the Factus double, carries the buyer saved before the payment.

const PHONE = { width: 360, height: 740 };
const BUYER = { summary: 'Factura a nombre de… (opcional)', type: 'Tipo de documento', number: 'Número de documento', name: 'Nombre o razón social', save: 'Guardar datos de facturación' };

/** The merchant invoices through the Factus double's account (the operator API, docs/einvoicing.md#settings). */
async function turnFactusOn(admin: APIRequestContext, merchant: Merchant) {
  const { clientId, clientSecret, username, password } = FACTUS_DOUBLE_ACCOUNT;
  const res = await admin.patch(`/admin/merchants/${merchant.merchantId}`, { data: { eInvoicing: { provider: 'factus', clientId, clientSecret, username, password, iva: 19 } } });
  expect(res.status(), await res.text()).toBe(200);
}

/** The customer Factus was sent for the plan's last charge, once the server issued its invoice. */
async function factusCustomerOf(request: APIRequestContext, merchant: Merchant, planId: string) {
  const transactionId = (await planStatus(request, merchant, planId)).lastTransaction!.subscriptionTransactionId;
  let customer: Record<string, unknown> | undefined;
  await expect
    .poll(async () => {
      const sent = (await (await request.get(`${FACTUS_DOUBLE.url}/__control/requests`)).json()) as { path: string; body: { reference_code?: string; customer?: Record<string, unknown> } }[];
      customer = sent.find((r) => r.path === '/v2/bills/validate' && r.body?.reference_code === transactionId)?.body.customer;
      return customer !== undefined;
    })
    .toBe(true);
  return customer!;
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
}

/** Opens the fold (a plain <details>: no script needed) and saves a document. */
async function saveBuyer(page: Page | FrameLocator, { type, number, name }: { type: string; number: string; name: string }) {
  const summary = page.getByText(BUYER.summary);
  if (!(await page.getByLabel(BUYER.number).isVisible())) await summary.click();
  await page.getByLabel(BUYER.type).selectOption(type);
  await page.getByLabel(BUYER.number).fill(number);
  await page.getByLabel(BUYER.name).fill(name);
  await page.getByRole('button', { name: BUYER.save }).click();
}

test.describe('on the hosted page', () => {
  test.use({ locale: 'es-CO', viewport: PHONE });

  test('with JavaScript: a wrong check digit is refused saying the right one; saved, paid, the first invoice names the company; the manage page changes it', async ({
    page,
    request,
    admin,
    merchant,
    createLink,
  }) => {
    test.setTimeout(60_000);
    const link = await createLink();
    await page.goto(`/pay/${link.token}`);
    await expectState(page, 'ready');
    // Not offered while the merchant does not invoice.
    await expect(page.getByText(BUYER.summary)).toHaveCount(0);
    await turnFactusOn(admin, merchant);
    await page.reload();
    await expect(page.getByText(BUYER.summary)).toBeVisible();

    await saveBuyer(page, { type: 'NIT', number: '900559088-7', name: 'Empresa de Pruebas SAS' });
    const alert = page.getByTestId('buyer-outcome');
    await expect(alert).toHaveText('Número de documento: el dígito de verificación de ese NIT no es correcto; debe ser 2. No se cambió nada.');
    await expect(alert).toHaveAttribute('role', 'alert');
    await expect(page.getByLabel(BUYER.number)).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('buyer-current')).toHaveText('Ahora: consumidor final.');
    await noSidewaysScroll(page);
    await expectAccessible(page);

    await saveBuyer(page, { type: 'NIT', number: '900559088', name: 'Empresa de Pruebas SAS' });
    await expect(page.getByTestId('buyer-outcome')).toHaveText('Listo: la factura saldrá a nombre de Empresa de Pruebas SAS (NIT 900559088-2).');
    await expect(page.getByLabel(BUYER.number)).toHaveValue('900559088-2');
    await noSidewaysScroll(page);

    await pay(page, { number: CARDS.approved, holder: 'Ana Gómez' });
    await expectState(page, 'approved');
    expect(await factusCustomerOf(request, merchant, link.subscriptionPlanId)).toMatchObject({ identification_document_code: '31', identification: '900559088', dv: '2', company: 'Empresa de Pruebas SAS' });

    // Later invoices: the manage page, a plain form.
    const made = await request.post(`/merchants/subscription-plans/${link.subscriptionPlanId}/manage-link`, { headers: { Authorization: merchant.authorization } });
    const { url } = await made.json();
    await page.goto(url);
    await expect(page.getByRole('heading', { name: 'Factura a nombre de…' })).toBeVisible();
    await expect(page.getByTestId('buyer-current')).toHaveText('Ahora: Empresa de Pruebas SAS, NIT 900559088-2.');
    await saveBuyer(page, { type: 'PP', number: 'AB 12', name: 'Ana Gómez' });
    await expect(page.getByTestId('buyer-outcome')).toHaveText('Número de documento: escriba de 3 a 20 letras y dígitos, sin espacios ni guiones. No se cambió nada.');
    await expect(page.getByTestId('buyer-current')).toHaveText('Ahora: Empresa de Pruebas SAS, NIT 900559088-2.');
    await saveBuyer(page, { type: 'CC', number: '1020304050', name: 'Ana Gómez' });
    await expect(page.getByTestId('buyer-outcome')).toHaveText('Listo: las próximas facturas saldrán a nombre de Ana Gómez (CC 1020304050).');
    await noSidewaysScroll(page);
    await page.getByRole('button', { name: 'Quitar: facturar a consumidor final' }).click();
    await expect(page.getByTestId('buyer-outcome')).toHaveText('Listo: las próximas facturas saldrán a nombre de consumidor final.');
    await expect(page.getByTestId('buyer-current')).toHaveText('Ahora: consumidor final.');
  });
});

test.describe('without JavaScript', () => {
  test.use({ locale: 'es-CO', viewport: PHONE, javaScriptEnabled: false });

  test('the fold and its form work as plain HTML; the no-JS card payment invoices the NIT saved', async ({ page, request, admin, merchant, createLink }) => {
    await turnFactusOn(admin, merchant);
    const link = await createLink();
    await page.goto(`/pay/${link.token}`);
    await saveBuyer(page, { type: 'NIT', number: '', name: 'Empresa de Pruebas SAS' });
    await expect(page.getByTestId('buyer-outcome')).toHaveText('Número de documento: escriba el número. No se cambió nada.');
    await saveBuyer(page, { type: 'NIT', number: '900.559.088-2', name: 'Empresa de Pruebas SAS' });
    await expect(page.getByTestId('buyer-outcome')).toHaveText('Listo: la factura saldrá a nombre de Empresa de Pruebas SAS (NIT 900559088-2).');
    expect(new URL(page.url()).search).toBe('?buyer=saved');
    await noSidewaysScroll(page);

    await payWithoutScript(page, CARDS.approved);
    await expectState(page, 'approved');
    expect(await factusCustomerOf(request, merchant, link.subscriptionPlanId)).toMatchObject({ identification: '900559088', dv: '2', company: 'Empresa de Pruebas SAS' });
  });
});

widgetTest.describe('in the widget', () => {
  widgetTest.use({ locale: 'es-CO', viewport: PHONE });

  widgetTest('the modal saves the buyer in its frame and pays with it', async ({ page, request, admin, merchant, createLink, site }) => {
    await turnFactusOn(admin, merchant);
    const link = await createLink();
    await page.goto(site.url({ token: link.token }));
    await page.getByRole('button', { name: 'Pagar suscripción' }).click();
    const { frame } = widget(page);
    await expectState(frame, 'ready');
    await saveBuyer(frame, { type: 'NIT', number: '900559088', name: 'Empresa de Pruebas SAS' });
    await expect(frame.getByTestId('buyer-outcome')).toHaveText('Listo: la factura saldrá a nombre de Empresa de Pruebas SAS (NIT 900559088-2).');
    await expectInteractive(frame);
    await pay(frame, { number: CARDS.approved });
    await expectState(frame, 'approved');
    await expect.poll(async () => (await page.evaluate(() => (window as unknown as { events: unknown[] }).events)).length).toBe(1);
    const success = await successOf(page);
    expect(success.subscriptionPlanId).toBe(link.subscriptionPlanId);
    expect(await factusCustomerOf(request, merchant, link.subscriptionPlanId)).toMatchObject({ identification: '900559088', dv: '2' });
  });
});
