// npm run bench:einvoice: electronic invoices at a burst (issue 39, docs/einvoicing.md#issuing).
// One `next start` instance on a scratch PostgreSQL database issues through the Factus double
// answering every call after 200 ms. First the payment path: payments on the hosted checkout's
// API, one at a time, alternating between a merchant with e-invoicing on and one without. Then the
// burst: 1,000 due renewals of the invoicing merchant charged by one test-clock run (the sandbox
// processor), and the time until every invoice is ISSUED.
import { parseArgs } from 'node:util';
import os from 'node:os';
import postgres from 'postgres';
import { openPostgres } from '@/db/client';
import { createMerchant } from '@/lib/merchants/merchants';
import { createPaymentLink } from '@/lib/plans/create-link';
import { factusDoubleAccount, startFactusDouble } from '@/test/factus-double';
import { factusSettings } from '@/test/invoices';
import { median, writeSection } from './report';
import { seedPlans } from './seed-plans';
import { apiServerEnv, createScratchDatabase, ensureBuild, freePort, startServer, wholeNumbers } from './setup';

const HEADING = '## Electronic invoices (npm run bench:einvoice)';
const LATENCY_MS = 200;
const APPROVING_CARD = { cardNumber: '4242424242424242', cardExpiry: '12/30', cardCvc: '123', cardHolder: 'Ana Gómez' };

const { values } = parseArgs({ options: { charges: { type: 'string', default: '1000' }, payments: { type: 'string', default: '60' } } });
const counts = wholeNumbers(values, ['charges', 'payments']);

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))]!;

async function main() {
  ensureBuild();
  const loadBefore = os.loadavg()[0]!;
  const scratch = await createScratchDatabase();
  const factus = await startFactusDouble({ latencyMs: LATENCY_MS });
  const account = factusDoubleAccount(factus);
  const sql = postgres(scratch.url, { max: 2, onnotice: () => {} });
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  try {
    // Two merchants with payment links; the first also with the burst's due plans.
    const database = await openPostgres(scratch.url, { max: 2 });
    const invoicing = await createMerchant(database.db, { name: 'Factura' });
    const plain = await createMerchant(database.db, { name: 'Sin factura' });
    const tokens: Record<string, string[]> = { [invoicing.merchantId]: [], [plain.merchantId]: [] };
    for (const merchantId of Object.keys(tokens)) {
      for (let i = 0; i < counts.payments; i++) {
        const link = await database.db.transaction((tx) =>
          createPaymentLink(tx, merchantId, {
            customer: { phone: '+573001234567', email: `pago${i}@example.com`, firstName: 'Ana' },
            plan: { externalReference: `pay-${i}`, description: 'Plan semanal', amount: 4_990_000, modality: 'RECURRING' },
          }),
        );
        tokens[merchantId]!.push(link.token);
      }
    }
    // Due tomorrow, so the server's own renewal sweep leaves them to the test clock's run.
    const dueAt = new Date(Date.now() + 24 * 60 * 60_000);
    await seedPlans(database.db, { count: counts.charges, due: counts.charges, dueAt, prefix: 'einv', merchantId: invoicing.merchantId });
    await database.close();
    await scratch.vacuum();

    const port = await freePort();
    const env: Record<string, string> = {
      ...apiServerEnv(scratch.url, `http://127.0.0.1:${port}`),
      SANDBOX_DEPLOYMENT: '1',
      FACTUS_API_URL: factus.url,
      SECRETS_ENCRYPTION_KEY: 'be9c'.repeat(16),
    };
    server = await startServer('next', { port, env });
    const admin = { Authorization: `Bearer ${env.ADMIN_API_TOKEN}`, 'Content-Type': 'application/json' };
    const turnedOn = await fetch(`${server.url}/admin/merchants/${invoicing.merchantId}`, { method: 'PATCH', headers: admin, body: JSON.stringify({ eInvoicing: factusSettings(account) }) });
    if (turnedOn.status !== 200) throw new Error(`turning e-invoicing on answered ${turnedOn.status}: ${await turnedOn.text()}`);

    // The payment path, alternating merchants so the machine's drift reaches both.
    const latencies: Record<string, number[]> = { [invoicing.merchantId]: [], [plain.merchantId]: [] };
    for (let i = 0; i < counts.payments; i++) {
      for (const merchantId of i % 2 ? [plain.merchantId, invoicing.merchantId] : [invoicing.merchantId, plain.merchantId]) {
        const started = performance.now();
        const res = await fetch(`${server.url}/checkout/session/${tokens[merchantId]![i]}/payments`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `10.77.${i % 250}.${merchantId === plain.merchantId ? 1 : 2}` },
          body: JSON.stringify(APPROVING_CARD),
        });
        const reply = (await res.json()) as { status?: string };
        if (res.status !== 200 || reply.status !== 'APPROVED') throw new Error(`a payment answered ${res.status} ${JSON.stringify(reply)}`);
        latencies[merchantId]!.push(performance.now() - started);
      }
    }
    const paidInvoices = async () => (await sql<{ n: number }[]>`select count(*)::int as n from invoices where status = 'ISSUED'`)[0]!.n;
    while ((await paidInvoices()) < counts.payments) await new Promise((r) => setTimeout(r, 250));

    // The burst: one test-clock run charges every due plan; the invoices are issued as they commit.
    const loadAtBurst = os.loadavg()[0]!;
    const started = Date.now();
    const run = fetch(`${server.url}/admin/billing/run`, { method: 'POST', headers: admin, body: JSON.stringify({ now: dueAt.getTime() + 60_000 }) }).then(async (res) => ({
      status: res.status,
      body: (await res.json()) as { approved?: number },
      at: Date.now(),
    }));
    const target = counts.payments + counts.charges;
    let issued = 0;
    while (issued < target && Date.now() - started < 600_000) {
      await new Promise((r) => setTimeout(r, 250));
      issued = await paidInvoices();
    }
    const allIssuedMs = Date.now() - started;
    const charged = await run;
    if (charged.status !== 200) throw new Error(`the test clock answered ${charged.status}: ${JSON.stringify(charged.body)}`);
    const [states] = await sql<{ approved: number; issued: number; other: number; attempts: number }[]>`
      select (select count(*)::int from transactions where kind = 'RENEWAL' and status = 'APPROVED') as approved,
        (select count(*)::int from invoices i join transactions t on t.id = i.transaction_id where t.kind = 'RENEWAL' and i.status = 'ISSUED') as issued,
        (select count(*)::int from invoices where status <> 'ISSUED') as other,
        (select coalesce(max(attempts), 0)::int from invoices) as attempts`;
    const references = new Set(factus.documents.map((d) => d.reference));
    const tokensAsked = factus.requests.filter((r) => r.path === '/oauth/token').length;

    const on = latencies[invoicing.merchantId]!;
    const off = latencies[plain.merchantId]!;
    const body = [
      `Taken ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run bench:einvoice\` (--charges ${counts.charges} --payments ${counts.payments}); ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'CPU'}, Node ${process.version}, PostgreSQL on the same machine. ` +
        `One \`next start\` instance (in-process invoice queue and sweep, the defaults), the Factus double over loopback HTTP answering every call after ${LATENCY_MS} ms, the sandbox processor. ` +
        (loadBefore > os.cpus().length ? `**The machine was busy with other work before the run**, so these times are upper bounds: ` : '') +
        `load average ${loadBefore.toFixed(1)} before the run, ${loadAtBurst.toFixed(1)} at the burst, ${os.loadavg()[0]!.toFixed(1)} after.`,
      '',
      `**Burst**: ${states!.approved.toLocaleString('en-US')} renewals approved by one test-clock run in ${seconds(charged.at - started)}; every invoice **ISSUED ${seconds(allIssuedMs)}** after the run started (aim: 60 s). ` +
        `${states!.issued.toLocaleString('en-US')} renewal invoices ISSUED, ${states!.other} in another state, at most ${states!.attempts} attempt per invoice; the double holds ${factus.documents.length.toLocaleString('en-US')} documents for ${references.size.toLocaleString('en-US')} references (payments included), ${tokensAsked.toLocaleString('en-US')} token requests. ` +
        `The last invoice was ISSUED ${seconds(allIssuedMs - (charged.at - started))} after the run answered.`,
      '',
      `**The payment path**: ${counts.payments} payments each (POST /checkout/session/{token}/payments, one at a time, alternating), the payer's wait:`,
      '',
      '| merchant | median | p95 |',
      '|---|---:|---:|',
      `| e-invoicing on (Factus) | ${median(on).toFixed(0)} ms | ${percentile(on, 0.95).toFixed(0)} ms |`,
      `| e-invoicing off | ${median(off).toFixed(0)} ms | ${percentile(off, 0.95).toFixed(0)} ms |`,
    ].join('\n');
    console.log(body);
    writeSection(body, HEADING);
  } finally {
    await server?.stop();
    await sql.end({ timeout: 1 });
    await factus.close();
    await scratch.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
