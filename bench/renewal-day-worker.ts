// One instance of `npm run bench:renewal-day` (bench/renewal-day.ts): a process that runs the
// renewal sweep once, as the timer of a deployment would, against the bench's PostgreSQL database
// and its Wompi double. It says READY, waits for a line on stdin, sweeps, and prints one JSON line
// per second (its RSS and the charges answered so far) and one at the end with the summary, its CPU time
// and the SWEEP_* limits it swept with.
// With BENCH_SETTLE=1 it runs the settler's pass first, as a deployment's timers would after a
// crash (test/resilience/renewal-day.resilience.ts).
import fs from 'node:fs';
import readline from 'node:readline';
import { openPostgres, setDatabase } from '@/db/client';
import { runRenewalSweep } from '@/lib/billing/sweep';
import { sweepLimits } from '@/lib/bounded';
import type { PaymentProcessor } from '@/lib/processors';
import { createWompiProcessor, type WompiKeys } from '@/lib/processors/wompi/processor';
import { runSettler } from '@/lib/settlement/settler';
import { installWebhookQueue } from '@/lib/webhooks/queue';

async function main() {
  const url = process.env.BENCH_DB_URL!;
  const apiUrl = process.env.BENCH_WOMPI_URL!;
  const now = new Date(Number(process.env.BENCH_NOW));
  const keys = JSON.parse(fs.readFileSync(process.env.BENCH_KEYS_FILE!, 'utf8')) as Record<string, WompiKeys>;
  // The pool a deployment's instance has (db/client.ts).
  const database = await openPostgres(url, { max: 10 });
  // The one pool of the process: what the sweep hands off after commit (e-mails) uses it too.
  setDatabase(database);
  // Renewals only: delivering their webhook events is bench:webhooks' business (they stay recorded).
  installWebhookQueue({ enqueue: async () => {} });
  let charged = 0;
  const processors = new Map(
    Object.entries(keys).map(([merchantId, k]): [string, PaymentProcessor] => {
      const wompi = createWompiProcessor(k, { apiUrl });
      // Charges answered so far: the bench takes its RSS baseline once a number of them is reached.
      return [merchantId, { ...wompi, charge: (request) => wompi.charge(request).finally(() => charged++) }];
    }),
  );
  const source = async (merchantId: string): Promise<PaymentProcessor | null> => processors.get(merchantId) ?? null;
  console.log('READY');
  await new Promise<void>((resolve) => readline.createInterface({ input: process.stdin }).once('line', () => resolve()));
  const started = Date.now();
  const cpuAtGo = process.cpuUsage();
  const sampler = setInterval(() => {
    console.log(JSON.stringify({ t: Date.now() - started, rss: process.memoryUsage().rss, charged }));
  }, 1000);
  if (process.env.BENCH_SETTLE === '1') await runSettler(database.db, { now, processorFor: (txn) => source(txn.merchantId) });
  const summary = await runRenewalSweep(database.db, source, { now });
  clearInterval(sampler);
  const cpu = process.cpuUsage(cpuAtGo);
  console.log(JSON.stringify({ done: true, ms: Date.now() - started, cpuMs: (cpu.user + cpu.system) / 1000, rss: process.memoryUsage().rss, limits: sweepLimits(), summary: { ...summary, transactionIds: summary.transactionIds.length } }));
  await database.close();
  process.exit(0);
}

void main();
