// npm run webhooks:listen -- --forward-to http://localhost:4242/webhooks
//   [--url http://localhost:3000] [--api-key pk_…:sk_…] [--secret whsec_…] [--replay N] [--interval ms]
// Receives the merchant's webhooks on this machine (lib/webhooks/listen.ts, docs/webhooks.md).
// Credentials default to the demo merchant's (.data/demo-merchant.json, written by the first
// `npm run dev`), or SERVICEPAY_API_KEY / SERVICEPAY_WEBHOOK_SECRET.
import { parseArgs } from 'node:util';
import { listen } from '@/lib/webhooks/listen';
import { demoCredentials } from './demo-credentials';

async function main() {
  const { values } = parseArgs({
    options: {
      'forward-to': { type: 'string' },
      url: { type: 'string' },
      'api-key': { type: 'string' },
      secret: { type: 'string' },
      replay: { type: 'string' },
      interval: { type: 'string' },
    },
  });
  const demo = demoCredentials();
  const credentials = values['api-key'] ?? process.env.SERVICEPAY_API_KEY ?? (demo.apiKey && demo.apiSecret ? `${demo.apiKey}:${demo.apiSecret}` : undefined);
  const secret = values.secret ?? process.env.SERVICEPAY_WEBHOOK_SECRET ?? demo.webhookSecret;
  const forwardTo = values['forward-to'];
  const problems = [
    !forwardTo || !/^https?:\/\//.test(forwardTo) ? '--forward-to: the local URL to POST to, e.g. http://localhost:4242/webhooks' : null,
    !credentials || !/^pk_\w+:sk_\w+$/.test(credentials) ? '--api-key: pk_…:sk_… (or SERVICEPAY_API_KEY; the demo merchant’s is read from .data/demo-merchant.json)' : null,
    !secret ? '--secret: the Webhook Secret, whsec_… (or SERVICEPAY_WEBHOOK_SECRET; the portal shows it under Settings → Webhooks)' : null,
  ].filter(Boolean);
  if (problems.length > 0) {
    console.error(`webhooks:listen needs:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    process.exit(2);
  }
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  process.once('SIGTERM', () => controller.abort());
  await listen({
    appUrl: (values.url ?? process.env.APP_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/+$/, ''),
    credentials: credentials!,
    secret: secret!,
    forwardTo: forwardTo!,
    replay: values.replay ? Number(values.replay) : 0,
    intervalMs: values.interval ? Number(values.interval) : 1000,
    signal: controller.signal,
  }).catch((error: Error) => {
    if (controller.signal.aborted) return;
    console.error(`error: ${error.message}`);
    process.exitCode = 1;
  });
}

void main();
