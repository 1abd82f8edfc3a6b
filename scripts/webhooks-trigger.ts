// npm run webhooks:trigger -- <event> [--url http://localhost:3000]
// Makes a real event of the merchant's, as `stripe trigger` does, without a browser: creates a link
// and pays it through the checkout's own API with a sandbox test card (then cancels the plan for
// subscription.cancelled). The event is recorded, signed and delivered like any other, so the
// webhook URL, or `npm run webhooks:listen`, receives it. Sandbox processor only (development and
// sandbox deployments). Credentials as webhooks:listen's (docs/webhooks.md#on-your-laptop).
import { parseArgs } from 'node:util';
import { ServicePay } from '@/packages/node/src/index';
import { SANDBOX_CARDS } from '@/lib/processors/sandbox';
import { apiCredentials } from './demo-credentials';

const EVENTS = {
  'subscription.charge.approved': SANDBOX_CARDS.approved,
  'subscription.charge.declined': SANDBOX_CARDS.declined,
  'subscription.charge.error': SANDBOX_CARDS.error,
  'subscription.cancelled': SANDBOX_CARDS.approved,
} as const;
type Trigger = keyof typeof EVENTS;

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

async function main() {
  const { values, positionals } = parseArgs({ options: { url: { type: 'string' } }, allowPositionals: true });
  const event = positionals[0] as Trigger | undefined;
  if (!event || !(event in EVENTS) || positionals.length > 1) {
    fail(`usage: npm run webhooks:trigger -- <event> [--url http://localhost:3000]\n  events: ${Object.keys(EVENTS).join(', ')}`);
  }
  const { apiKey, apiSecret } = apiCredentials();
  if (!apiKey || !apiSecret) fail('webhooks:trigger needs SERVICEPAY_API_KEY=pk_… and SERVICEPAY_API_SECRET=sk_… in the environment (the demo merchant’s are read from .data/demo-merchant.json)');
  const baseUrl = (values.url ?? process.env.APP_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/+$/, '');
  const servicepay = new ServicePay({ apiKey, apiSecret, baseUrl });

  const reference = `trigger-${Date.now().toString(36)}`;
  const link = await servicepay.links.create({
    customer: { phone: '+573001234567', email: `${reference}@example.com`, firstName: 'Prueba' },
    plan: { externalReference: reference, description: `Evento de prueba ${event}`, amount: 150000 },
  });
  const paid = await fetch(`${baseUrl}/checkout/session/${link.token}/payments`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ cardNumber: EVENTS[event], cardExpiry: '12/30', cardCvc: '123', cardHolder: 'Prueba ServicePay' }),
  });
  if (!paid.ok) {
    const body = (await paid.json().catch(() => null)) as { error?: { message?: string } } | null;
    fail(`the checkout refused the test card (${paid.status}: ${body?.error?.message ?? 'no message'}): webhooks:trigger needs the built-in sandbox processor, not Wompi`);
  }
  if (event === 'subscription.cancelled') await servicepay.plans.cancel(link.subscriptionPlanId);

  // The events are recorded in the payment's and the cancellation's own transactions.
  const made: string[] = [];
  for await (const e of servicepay.webhooks.list({ subscriptionPlanId: link.subscriptionPlanId })) made.push(`${e.event} ${e.id}`);
  if (!made.some((line) => line.startsWith(`${event} `))) {
    fail(`plan ${link.subscriptionPlanId} made ${made.join(', ') || 'no event'}, not ${event}: choose it in the portal (Settings → Webhooks) and run this again`);
  }
  console.log(`plan ${link.subscriptionPlanId}: ${made.reverse().join(', ')}; sent to your webhook URL (and to webhooks:listen, if it runs)`);
}

main().catch((error: Error) => fail(`error: ${error.message}`));
