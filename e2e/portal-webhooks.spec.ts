import { createHmac } from 'node:crypto';
import { type Receiver, startReceiver } from '../test/webhook-receiver';
import { CARDS, expectState, pay } from './checkout-helpers';
import { expect, test } from './fixtures';
import { createKey, formWith, linkBody, signUp, webhookUrlField } from './portal-helpers';

// Webhooks end to end (issue 8, docs/webhooks.md#delivery): a merchant signs up in the portal, points its
// webhook URL at a real HTTPS receiver on loopback (trusted through the run's test CA), tries it
// with a test event, then a customer pays and the receiver gets the signed event once; the
// portal shows the event and its attempts, and a resend delivers the same bytes again.

test.use({ locale: 'es-CO' });

let receiver: Receiver;

test.beforeEach(async () => {
  receiver = await startReceiver();
});

test.afterEach(async () => {
  await receiver.close();
});

const sign = (body: string, secret: string) => createHmac('sha256', secret).update(Buffer.from(body, 'utf8')).digest('hex');

test('a payment reaches the receiver signed, shows in Activity with its attempt, and a resend sends the same bytes', async ({ page, request, admin }) => {
  test.setTimeout(90_000);
  await signUp(page);
  const key = await createKey(page);

  // Settings → Webhooks: the receiver's URL, the signing secret, a test event and its reply.
  await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
  const url = webhookUrlField(page);
  const urlForm = formWith(page, url);
  await url.fill(receiver.url);
  await urlForm.getByRole('button', { name: 'Guardar', exact: true }).click();
  await expect(urlForm.getByRole('status')).toHaveText('URL guardada.');

  await page.getByText('Mostrar el secreto').click();
  const secret = (await page.getByTestId('webhook-secret').textContent())!;
  expect(secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);

  const testForm = page.getByRole('region', { name: 'Evento de prueba' }).locator('form');
  await testForm.getByRole('button', { name: 'Enviar un evento de prueba' }).click();
  await expect(testForm.getByRole('status')).toContainText(/Respuesta: 200 en \d+ ms\./);
  await expect(testForm.getByRole('status')).toContainText('Cuerpo de la respuesta');
  await expect(testForm.getByRole('status').locator('pre code')).toHaveText('ok');
  const [testEvent] = await receiver.waitFor(1);
  expect(receiver.received).toHaveLength(1);
  expect(testEvent!.path).toBe('/webhooks');
  expect(JSON.parse(testEvent!.body).event).toBe('servicepay.test');
  expect(testEvent!.headers['x-webhook-signature']).toBe(sign(testEvent!.body, secret));

  // A link made with the portal's key, paid by a customer with the approved sandbox card.
  const created = await request.post('/merchants/subscription-link', {
    headers: { Authorization: key.authorization },
    data: linkBody(`order-webhook-${Date.now().toString(36)}`),
  });
  expect(created.status(), await created.text()).toBe(200);
  const link: { token: string; subscriptionPlanId: string } = await created.json();
  await page.goto(`/pay/${link.token}`);
  await pay(page, { number: CARDS.approved });
  await expectState(page, 'approved');

  // Exactly one POST for the charge, signed with the secret the portal shows.
  const deliveries = await receiver.waitFor(2);
  const delivery = deliveries[1]!;
  expect(delivery.path).toBe('/webhooks');
  expect(delivery.headers['content-type']).toBe('application/json');
  expect(delivery.headers['user-agent']).toBe('ServicePay-Webhooks/1');
  expect(delivery.headers['x-webhook-signature']).toBe(sign(delivery.body, secret));
  const eventId = delivery.headers['x-webhook-id'] as string;
  expect(eventId).toMatch(/^evt_/);
  const body = JSON.parse(delivery.body);
  expect(body).toMatchObject({
    event: 'subscription.charge.approved',
    data: { subscriptionPlanId: link.subscriptionPlanId, status: 'APPROVED', amount: 150000 },
  });

  // Activity → the plan: the event (the id the receiver got) and its automatic attempt, a 200.
  await page.goto('/portal/activity');
  await page.getByRole('link', { name: 'Plan mensual' }).click();
  await expect(page).toHaveURL(new RegExp(`/portal/activity/plans/${link.subscriptionPlanId}$`));
  const event = page.getByRole('article').filter({ hasText: 'subscription.charge.approved' });
  await expect(event).toHaveCount(1);
  await expect(event.getByRole('link', { name: eventId })).toBeVisible();
  const attempts = event.getByRole('table', { name: 'Intentos' }).locator('tbody tr');
  // The attempt is recorded once the receiver has answered: it may land just after the page.
  await expect(async () => {
    await page.reload();
    await expect(attempts).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(attempts.nth(0).getByRole('cell').nth(0)).toContainText('(Automático)');
  await expect(attempts.nth(0).getByRole('cell').nth(1)).toHaveText('200');
  await expect(attempts.nth(0).getByRole('cell').nth(3)).toHaveText('ok');
  // Still one delivery of the charge: nothing was sent twice.
  expect(receiver.received).toHaveLength(2);

  // Resend: a second, manual attempt, and the receiver gets the same bytes and id again.
  const resendForm = event.locator('form');
  await resendForm.getByRole('button', { name: 'Reenviar' }).click();
  await expect(resendForm.getByRole('status')).toHaveText('Evento reenviado.');
  await expect(attempts).toHaveCount(2);
  await expect(attempts.filter({ hasText: '(Reenvío)' })).toHaveCount(1);
  await expect(attempts.filter({ hasText: '(Reenvío)' }).getByRole('cell').nth(1)).toHaveText('200');
  const resent = (await receiver.waitFor(3))[2]!;
  expect(resent.body).toBe(delivery.body);
  expect(resent.headers['x-webhook-id']).toBe(eventId);
  expect(resent.headers['x-webhook-signature']).toBe(delivery.headers['x-webhook-signature']);
  expect(receiver.received).toHaveLength(3);

  // A forged resend of another merchant's event (the form's eventId changed) is a 403 and sends
  // nothing; it was a 500 when the ownership error escaped the server action.
  const other = await (await admin.post('/admin/merchants', { data: { name: 'Otro comercio' } })).json();
  const otherAuth = { Authorization: `Bearer ${other.apiKey}:${other.apiSecret}` };
  const otherLink = await (await admin.post('/merchants/subscription-link', { headers: otherAuth, data: linkBody('order-forged-resend') })).json();
  const charged = await request.post(`/checkout/session/${otherLink.token}/payments`, {
    data: { cardNumber: CARDS.approved, cardExpiry: '12/30', cardCvc: '123', cardHolder: 'Ana Gómez' },
  });
  expect(charged.status(), await charged.text()).toBe(200);
  const otherEvents = await (await admin.get('/merchants/webhook-events', { headers: otherAuth })).json();
  const otherEventId: string = otherEvents.data[0].id;
  await resendForm.locator('input[name="eventId"]').evaluate((input, id) => ((input as HTMLInputElement).value = id), otherEventId);
  const [forged] = await Promise.all([
    page.waitForResponse((res) => res.request().method() === 'POST' && res.url().includes('/portal/activity/')),
    resendForm.getByRole('button', { name: 'Reenviar' }).click(),
  ]);
  expect(forged.status()).toBe(403);
  expect(receiver.received).toHaveLength(3);
});
