import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { type ServicePayEvent, ServicePay, webhooks } from '@servicepay/node';

// A merchant's backend in a project of its own, with @servicepay/node installed from the packed
// tarball (e2e/sdk-journey.spec.ts copies this file there and runs it with Node, types stripped).
// It starts its HTTPS webhook receiver on loopback, creates a payment link, waits for the
// outcome while the customer pays, and verifies the webhook that arrives. It prints one JSON
// line per step for the journey to read: { receiver }, { link }, then { outcome, webhook }.

const env = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is unset`);
  return value;
};
const say = (line: object) => console.log(JSON.stringify(line));

const secret = env('SERVICEPAY_WEBHOOK_SECRET');
const servicepay = new ServicePay({ apiKey: env('SERVICEPAY_API_KEY'), apiSecret: env('SERVICEPAY_API_SECRET'), baseUrl: env('SERVICEPAY_URL') });

interface Delivery {
  id: string;
  body: string;
  verified: boolean;
  /** The same bytes with one changed: must not verify. */
  alteredVerifies: boolean;
  event: ServicePayEvent;
}

let received: (delivery: Delivery) => void;
const delivery = new Promise<Delivery>((resolve) => (received = resolve));
const receiver = https.createServer({ key: fs.readFileSync(env('TLS_KEY_FILE')), cert: fs.readFileSync(env('TLS_CERT_FILE')) }, async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const signature = req.headers['x-webhook-signature'] as string | undefined;
  const verified = webhooks.verify(raw, signature, secret);
  res.writeHead(verified ? 200 : 401).end();
  if (!verified) return;
  const altered = Buffer.from(raw);
  altered.writeUInt8(altered.readUInt8(0) ^ 1, 0);
  received({
    id: String(req.headers['x-webhook-id']),
    body: raw.toString('utf8'),
    verified,
    alteredVerifies: webhooks.verify(altered, signature, secret),
    event: webhooks.parse(raw, signature, secret),
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
say({ receiver: `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks` });

const link = await servicepay.links.create({
  customer: { phone: '+573001234567', email: 'ana@example.com', firstName: 'Ana' },
  plan: { externalReference: `sdk-journey-${Date.now()}`, description: 'Plan mensual', amount: 150000 },
});
say({ link });

// The customer pays meanwhile; one call polls the plan status until the charge is final.
const { outcome, status } = await servicepay.waitForOutcome(link.subscriptionPlanId, { intervalMs: 1_000, attempts: 60 });
const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no webhook within 30 s')), 30_000).unref());
const webhook = await Promise.race([delivery, timeout]);
receiver.closeAllConnections();
receiver.close();
say({ outcome, status, webhook });
