// npm run einvoice:check -- --provider factus|alegra [--api-url URL] [--number N] [--nit NIT]
// Issues one invoice and the credit note that annuls it in a provider's SANDBOX with a merchant's
// test credentials, through ServicePay's own adapter, and prints each step with any difference
// from what ServicePay expects (docs/einvoicing.md#checking-against-a-providers-sandbox).
// Credentials from the environment: FACTUS_CLIENT_ID, FACTUS_CLIENT_SECRET, FACTUS_USERNAME,
// FACTUS_PASSWORD (and FACTUS_NUMBERING_RANGE_ID) for Factus; ALEGRA_TOKEN, ALEGRA_COMPANY_ID and
// the resolution (ALEGRA_RESOLUTION_NUMBER, _PREFIX, _FROM, _TO, _START, _END, _TECHNICAL_KEY; DIAN's
// public test range when unset) for Alegra. Production URLs are refused. Exits 1 on any difference.
// The check's logic lives here, outside lib/einvoicing's issuing path; it has only ever been run
// against the local doubles (scripts/einvoice-check.test.ts).
import { parseArgs } from 'node:util';
import { ALEGRA_PRODUCTION_URL, ALEGRA_SANDBOX_URL, createAlegraProvider } from '@/lib/einvoicing/alegra';
import { cufe } from '@/lib/einvoicing/cufe';
import { bogotaDate } from '@/lib/einvoicing/dates';
import { DIAN_TEST_RESOLUTION } from '@/lib/einvoicing/dian-test-range';
import { creditNoteDraft, FINAL_CONSUMER_ID, finalConsumer, invoiceDraft, type Resolution } from '@/lib/einvoicing/draft';
import { createFactusProvider, FACTUS_PRODUCTION_URL, FACTUS_SANDBOX_URL } from '@/lib/einvoicing/factus';
import { EInvoiceAuthError, type EInvoiceProvider, type IssuedDocument, type IssueResult } from '@/lib/einvoicing/provider';
import { type StepResult, stepRunner } from './checks/steps';

export type CheckSettings =
  | { provider: 'factus'; clientId: string; clientSecret: string; username: string; password: string; numberingRangeId?: number | null }
  | { provider: 'alegra'; token: string; companyId: string; resolution: Resolution; number: number; nit?: string };

interface CheckOptions {
  settings: CheckSettings;
  apiUrl?: string;
  timeoutMs?: number;
  print?: (line: string) => void;
  now?: () => Date;
}

/** The check issues real (test) documents: a production URL is refused. */
export function productionProblem(provider: 'factus' | 'alegra', apiUrl: string): string | null {
  const production = provider === 'factus' ? FACTUS_PRODUCTION_URL : ALEGRA_PRODUCTION_URL;
  return apiUrl.replace(/\/+$/, '').startsWith(production) ? `${apiUrl} is the provider's production API: this check issues documents, point it at the sandbox` : null;
}

const describeResult = (r: IssueResult) => (r.status === 'ISSUED' ? `ISSUED ${r.number}` : `REJECTED ${r.errors.map((e) => `${e.rule}: ${e.message}`).join('; ')}`);

export async function runEInvoiceCheck(options: CheckOptions): Promise<{ ok: boolean; steps: StepResult[] }> {
  const print = options.print ?? console.log;
  const now = options.now ?? (() => new Date());
  const { settings } = options;
  const apiUrl = (options.apiUrl ?? (settings.provider === 'factus' ? FACTUS_SANDBOX_URL : ALEGRA_SANDBOX_URL)).replace(/\/+$/, '');
  const { steps, step, skipped, fail } = stepRunner(print, (error) => `${error.name}: ${error.message}`);
  const refused = productionProblem(settings.provider, apiUrl);
  if (refused) {
    fail('settings', refused);
    return { ok: false, steps };
  }
  const build = (s: CheckSettings): EInvoiceProvider =>
    s.provider === 'factus'
      ? createFactusProvider({ baseUrl: apiUrl, credentials: s, environment: 2, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) })
      : createAlegraProvider({ baseUrl: apiUrl, credentials: s, environment: 2, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) });
  const provider = build(settings);

  // 1. Credentials, and a wrong one refused as such: what the portal's "Probar" relies on.
  await step('credentials: accepted, nothing issued', async () => {
    await provider.checkCredentials();
    return { value: true, detail: 'the provider accepted them', differences: [] };
  });
  await step('credentials: a wrong secret is refused as a credentials error', async () => {
    const wrong: CheckSettings = settings.provider === 'factus' ? { ...settings, password: `${settings.password}-wrong` } : { ...settings, token: `${settings.token}-wrong` };
    const error = await build(wrong).checkCredentials().then(() => null, (e: unknown) => e);
    return { value: true, detail: error ? `refused (${(error as Error).name})` : 'accepted', differences: error instanceof EInvoiceAuthError ? [] : [`expected EInvoiceAuthError, got ${error ? (error as Error).name : 'no error'}`] };
  });

  // 2. One invoice: the final consumer, 11 900 COP IVA included, paid by card.
  const stamp = `${now().getTime().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const issuedAt = now();
  const invoice = invoiceDraft({
    reference: `check_${stamp}`,
    issuedAt,
    period: { start: bogotaDate(issuedAt), end: bogotaDate(issuedAt) },
    buyer: finalConsumer('einvoice-check@example.com'),
    lines: [{ description: 'Prueba de facturación ServicePay', quantity: 1, unitPrice: 1_190_000, discount: 0, iva: 19 }],
    paymentMethod: 'CARD',
    numbering: settings.provider === 'alegra' ? { prefix: settings.resolution.prefix, number: settings.number, resolution: settings.resolution } : null,
  });
  const issued = await step('invoice: issued and validated by DIAN', async () => {
    const result = await provider.issueInvoice(invoice);
    const differences: string[] = [];
    if (result.status !== 'ISSUED') differences.push(`expected ISSUED: ${describeResult(result)}`);
    else {
      if (!/^[0-9a-f]{96}$/.test(result.cufe)) differences.push(`the CUFE is not 96 lower-case hex characters: ${result.cufe}`);
      if (!/^https:\/\/catalogo-vpfe(-hab)?\.dian\.gov\.co\//.test(result.qrUrl)) differences.push(`the QR link is not DIAN's catalogue: ${result.qrUrl}`);
    }
    return { value: result as IssuedDocument, detail: result.status === 'ISSUED' ? `${result.number}, CUFE ${result.cufe.slice(0, 12)}…, ${result.warnings.length} notice(s)` : describeResult(result), differences };
  });
  if (issued && settings.provider === 'alegra' && settings.nit) {
    const nit = settings.nit;
    await step('invoice: the CUFE is the one the core computes from what we sent', async () => {
      // The provider signs at its own time; the minute we sent it in is tried within a few seconds either side.
      const candidates = new Set<string>();
      for (let s = -120; s <= 120; s++) {
        const at = new Date(issuedAt.getTime() + s * 1000);
        const local = new Date(at.getTime() - 5 * 3600_000).toISOString();
        candidates.add(cufe({ number: issued.number, issueDate: local.slice(0, 10), issueTime: `${local.slice(11, 19)}-05:00`, lineExtension: invoice.totals.lineExtension, iva: invoice.totals.iva, inc: 0, ica: 0, payable: invoice.totals.payable, supplierNit: nit, buyerId: FINAL_CONSUMER_ID, technicalKey: settings.resolution.technicalKey, environment: 2 }));
      }
      const ok = candidates.has(issued.cufe);
      return { value: true, detail: ok ? 'recomputed' : 'not recomputed', differences: ok ? [] : ['no issue time within two minutes of sending gives this CUFE: check the NIT, the technical key and the amounts'] };
    });
  }
  if (issued) {
    await step('invoice: sent again, the same document (no second invoice)', async () => {
      const again = await provider.issueInvoice(invoice);
      const same = again.status === 'ISSUED' && again.number === issued.number && again.cufe === issued.cufe;
      return { value: true, detail: describeResult(again), differences: same ? [] : [`expected ${issued.number} again: ${describeResult(again)}`] };
    });
    await step('invoice: found again by our reference or number', async () => {
      const found = await provider.findDocument({ kind: 'INVOICE', reference: invoice.reference, number: issued.number });
      const same = found?.status === 'ISSUED' && found.cufe === issued.cufe;
      return { value: true, detail: found ? describeResult(found) : 'not found', differences: same ? [] : [`expected ${issued.number}: ${found ? describeResult(found) : 'not found'}`] };
    });
  } else skipped('invoice: sent again, the same document (no second invoice)', 'no invoice was issued');

  // 3. The credit note annulling it (concept 2), citing its number and CUFE.
  if (issued) {
    const note = creditNoteDraft({
      reference: `checkcn_${stamp}`,
      issuedAt: now(),
      buyer: invoice.buyer,
      lines: invoice.lines,
      paymentMethod: invoice.paymentMethod,
      concept: '2',
      invoice: { number: issued.number, prefix: issued.number.replace(/\d+$/, ''), cufe: issued.cufe, issueDate: bogotaDate(issuedAt) },
      numbering: settings.provider === 'alegra' ? { prefix: 'NC', number: settings.number, resolution: null } : null,
    });
    const credited = await step('credit note: issued citing the invoice', async () => {
      const result = await provider.issueCreditNote(note);
      const differences = result.status === 'ISSUED' ? (result.cufe === issued.cufe ? ['the note answered the invoice\'s CUFE, not its own CUDE'] : []) : [`expected ISSUED: ${describeResult(result)}`];
      return { value: result as IssuedDocument, detail: describeResult(result), differences };
    });
    if (credited) {
      await step('credit note: sent again, the same note', async () => {
        const again = await provider.issueCreditNote(note);
        const same = again.status === 'ISSUED' && again.number === credited.number;
        return { value: true, detail: describeResult(again), differences: same ? [] : [`expected ${credited.number} again: ${describeResult(again)}`] };
      });
    }
  } else skipped('credit note: issued citing the invoice', 'no invoice was issued');

  return { ok: steps.every((s) => s.ok), steps };
}

function settingsFromEnvironment(provider: string, env: NodeJS.ProcessEnv, values: { number?: string; nit?: string }): CheckSettings | string {
  if (provider === 'factus') {
    const missing = ['FACTUS_CLIENT_ID', 'FACTUS_CLIENT_SECRET', 'FACTUS_USERNAME', 'FACTUS_PASSWORD'].filter((n) => !env[n]);
    if (missing.length > 0) return `Set ${missing.join(', ')} to the merchant's Factus sandbox credentials.`;
    return { provider, clientId: env.FACTUS_CLIENT_ID!, clientSecret: env.FACTUS_CLIENT_SECRET!, username: env.FACTUS_USERNAME!, password: env.FACTUS_PASSWORD!, numberingRangeId: env.FACTUS_NUMBERING_RANGE_ID ? Number(env.FACTUS_NUMBERING_RANGE_ID) : null };
  }
  if (provider === 'alegra') {
    const missing = ['ALEGRA_TOKEN', 'ALEGRA_COMPANY_ID'].filter((n) => !env[n]);
    if (missing.length > 0) return `Set ${missing.join(', ')} to the merchant's Alegra sandbox token and company.`;
    const resolution: Resolution = env.ALEGRA_RESOLUTION_NUMBER
      ? { number: env.ALEGRA_RESOLUTION_NUMBER, prefix: env.ALEGRA_RESOLUTION_PREFIX ?? '', from: Number(env.ALEGRA_RESOLUTION_FROM), to: Number(env.ALEGRA_RESOLUTION_TO), startDate: env.ALEGRA_RESOLUTION_START ?? '', endDate: env.ALEGRA_RESOLUTION_END ?? '', technicalKey: env.ALEGRA_RESOLUTION_TECHNICAL_KEY ?? '' }
      : DIAN_TEST_RESOLUTION;
    // A number nobody used in the range: Alegra's sandbox answers rule 90 for one already sent.
    const number = values.number ? Number(values.number) : resolution.from + 1 + (Math.floor(Date.now() / 1000) % (resolution.to - resolution.from - 1));
    return { provider, token: env.ALEGRA_TOKEN!, companyId: env.ALEGRA_COMPANY_ID!, resolution, number, ...(values.nit ? { nit: values.nit } : {}) };
  }
  return 'Give --provider factus or --provider alegra.';
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { provider: { type: 'string' }, 'api-url': { type: 'string' }, number: { type: 'string' }, nit: { type: 'string' } } });
  const provider = values.provider ?? process.env.EINVOICE_PROVIDER ?? '';
  const settings = settingsFromEnvironment(provider, process.env, values);
  if (typeof settings === 'string') {
    console.error(settings);
    return 2;
  }
  const apiUrl = values['api-url'] ?? (provider === 'factus' ? process.env.FACTUS_API_URL : process.env.ALEGRA_API_URL);
  const { ok } = await runEInvoiceCheck({ settings, ...(apiUrl ? { apiUrl } : {}) });
  return ok ? 0 : 1;
}

if (process.argv[1]?.endsWith('einvoice-check.ts')) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
