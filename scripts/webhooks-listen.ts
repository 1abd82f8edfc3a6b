// npm run webhooks:listen -- --forward-to http://localhost:8080/webhooks
//   [--url http://localhost:3000] [--replay N] [--interval ms]
// Receives the merchant's webhooks on this machine (lib/webhooks/listen.ts, docs/webhooks.md).
// Credentials come from the environment (SERVICEPAY_API_KEY, SERVICEPAY_API_SECRET and
// SERVICEPAY_WEBHOOK_SECRET, as the SDK names them), else the
// demo merchant's (.data/demo-merchant.json, written by the first `npm run dev`), else a prompt on
// the terminal that does not echo them. Never from the command line: npm prints a script's
// arguments, and `ps` shows them to every user of the machine.
import readline from 'node:readline';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { listen } from '@/lib/webhooks/listen';
import { apiCredentials, demoCredentials } from './demo-credentials';

/** Asks on the terminal without echoing the answer; undefined without a terminal. */
async function askHidden(question: string): Promise<string | undefined> {
  if (!process.stdin.isTTY) return undefined;
  process.stderr.write(question);
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const rl = readline.createInterface({ input: process.stdin, output: silent, terminal: true });
  const answer = await new Promise<string>((resolve) => rl.question('', resolve));
  rl.close();
  process.stderr.write('\n');
  return answer.trim() || undefined;
}

async function main() {
  const { values } = parseArgs({
    options: {
      'forward-to': { type: 'string' },
      url: { type: 'string' },
      replay: { type: 'string' },
      interval: { type: 'string' },
      // Refused with a reason, below: a secret on the command line is seen by others.
      'api-key': { type: 'string' },
      secret: { type: 'string' },
    },
  });
  if (values['api-key'] !== undefined || values.secret !== undefined) {
    console.error(
      'webhooks:listen takes no credentials on the command line (npm prints its arguments and `ps` shows them):\n' +
        '  set SERVICEPAY_API_KEY=pk_…, SERVICEPAY_API_SECRET=sk_… and SERVICEPAY_WEBHOOK_SECRET=whsec_… in the environment, or run it in a terminal to be asked.',
    );
    process.exit(2);
  }
  const known = apiCredentials();
  const apiKey = known.apiKey ?? (await askHidden('API key (pk_…): '));
  const apiSecret = known.apiSecret ?? (await askHidden('API secret (sk_…): '));
  const secret = process.env.SERVICEPAY_WEBHOOK_SECRET ?? demoCredentials().webhookSecret ?? (await askHidden('Webhook Secret (whsec_…): '));
  const forwardTo = values['forward-to'];
  const problems = [
    !forwardTo || !/^https?:\/\//.test(forwardTo) ? '--forward-to: the local URL to POST to, e.g. http://localhost:8080/webhooks' : null,
    !apiKey || !/^pk_\w+$/.test(apiKey) || !apiSecret || !/^sk_\w+$/.test(apiSecret)
      ? 'SERVICEPAY_API_KEY=pk_… and SERVICEPAY_API_SECRET=sk_… in the environment (the demo merchant’s are read from .data/demo-merchant.json; in a terminal you are asked)'
      : null,
    !secret ? 'SERVICEPAY_WEBHOOK_SECRET=whsec_… in the environment (the portal shows it under Settings → Webhooks; in a terminal you are asked)' : null,
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
    credentials: `${apiKey}:${apiSecret}`,
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
