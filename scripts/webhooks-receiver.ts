// npm run webhooks:receiver [-- --port 8080] [--secret whsec_…]
// The README's receiver (docs/examples/webhook-receiver.ts) on http://localhost:8080/webhooks,
// printing each verified event: with `npm run webhooks:listen`, a first webhook in two minutes.
// The secret defaults to the demo merchant's (.data/demo-merchant.json) or SERVICEPAY_WEBHOOK_SECRET.
import http from 'node:http';
import { parseArgs } from 'node:util';
import { servicePayWebhooks } from '../docs/examples/webhook-receiver';
import { demoCredentials } from './demo-credentials';

const { values } = parseArgs({ options: { port: { type: 'string', default: '8080' }, secret: { type: 'string' } } });
const secret = values.secret ?? process.env.SERVICEPAY_WEBHOOK_SECRET ?? demoCredentials().webhookSecret;
if (!secret) {
  console.error('webhooks:receiver needs --secret whsec_… (or SERVICEPAY_WEBHOOK_SECRET; the demo merchant’s is read from .data/demo-merchant.json)');
  process.exit(2);
}
const handler = servicePayWebhooks({
  secret,
  // A charge event carries an amount; a lifecycle event (docs/customers.md) does not.
  handle: async (event) =>
    console.log(`verified ${event.event} ${event.data.subscriptionPlanId} ${event.data.status}${'amount' in event.data ? ` amount=${event.data.amount}` : ''}`),
});
http
  .createServer((req, res) => {
    res.on('finish', () => {
      if (res.statusCode !== 200) console.log(`refused ${req.method} ${req.url}: ${res.statusCode}`);
    });
    return handler(req, res);
  })
  .listen(Number(values.port), '127.0.0.1', () => console.log(`Receiving on http://localhost:${values.port}/webhooks (Ctrl+C to stop)`));
