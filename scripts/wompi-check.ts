// npm run wompi:check -- [--event stored-event.json] [--api-url https://sandbox.wompi.co/v1]
// Runs ServicePay's Wompi calls against Wompi's real sandbox with your own TEST keys and prints
// each step with any difference from what ServicePay expects (docs/processors.md#checking-against-wompis-sandbox).
// Keys from the environment: WOMPI_PUBLIC_KEY, WOMPI_PRIVATE_KEY, WOMPI_INTEGRITY_SECRET and,
// to check a stored event, WOMPI_EVENTS_SECRET. Production keys are refused. Exits 1 on any difference.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { runWompiCheck } from './checks/wompi';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { event: { type: 'string' }, 'api-url': { type: 'string' } } });
  const env = process.env;
  const missing = ['WOMPI_PUBLIC_KEY', 'WOMPI_PRIVATE_KEY', 'WOMPI_INTEGRITY_SECRET'].filter((name) => !env[name]);
  if (missing.length > 0) {
    console.error(`Set ${missing.join(', ')} to your Wompi TEST keys (Wompi's dashboard → Desarrolladores).`);
    return 2;
  }
  const { ok } = await runWompiCheck({
    publicKey: env.WOMPI_PUBLIC_KEY!,
    privateKey: env.WOMPI_PRIVATE_KEY!,
    integritySecret: env.WOMPI_INTEGRITY_SECRET!,
    eventsSecret: env.WOMPI_EVENTS_SECRET,
    apiUrl: values['api-url'] ?? env.WOMPI_API_URL,
    storedEvent: values.event ? JSON.parse(readFileSync(values.event, 'utf8')) : undefined,
  });
  return ok ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
