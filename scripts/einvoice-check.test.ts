import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALEGRA_DOUBLE_ACCOUNT, alegraDoubleAccount, startAlegraDouble, type AlegraDouble } from '@/test/alegra-double';
import { factusDoubleAccount, startFactusDouble, type FactusDouble } from '@/test/factus-double';
import { TEST_RESOLUTION } from '@/test/einvoicing-drafts';
import { runEInvoiceCheck, type CheckSettings } from './einvoice-check';

// npm run einvoice:check against the local doubles (the only place it has run): green against a
// double that behaves as documented, red where the provider answers otherwise.

let factus: FactusDouble;
let alegra: AlegraDouble;
let number = 990_100_000;

beforeAll(async () => {
  [factus, alegra] = await Promise.all([startFactusDouble(), startAlegraDouble()]);
});
afterAll(() => Promise.all([factus.close(), alegra.close()]));

const quiet = () => {
  const lines: string[] = [];
  return { lines, print: (line: string) => void lines.push(line) };
};
const factusSettings = (): CheckSettings => ({ provider: 'factus', ...factusDoubleAccount(factus), numberingRangeId: null });
const alegraSettings = (change: Partial<typeof ALEGRA_DOUBLE_ACCOUNT> = {}): CheckSettings => {
  const account = alegraDoubleAccount(alegra, change);
  return { provider: 'alegra', token: account.token, companyId: account.companyId, resolution: TEST_RESOLUTION, number: ++number, nit: account.nit };
};

describe('einvoice:check', () => {
  it('passes every step against the Factus double: one invoice, one credit note', async () => {
    const out = quiet();
    const { ok, steps } = await runEInvoiceCheck({ settings: factusSettings(), apiUrl: factus.url, print: out.print });
    expect(steps.filter((s) => !s.ok)).toEqual([]);
    expect(ok).toBe(true);
    expect(out.lines.join('\n')).toMatch(/✓ invoice: issued and validated by DIAN: SETP99\d{7}/);
    expect(out.lines.join('\n')).toMatch(/✓ credit note: issued citing the invoice: ISSUED NC\d+/);
  });

  it('passes every step against the Alegra double, the CUFE recomputed from what was sent', async () => {
    const out = quiet();
    const { ok, steps } = await runEInvoiceCheck({ settings: alegraSettings(), apiUrl: alegra.url, print: out.print });
    expect(steps.filter((s) => !s.ok)).toEqual([]);
    expect(ok).toBe(true);
    expect(steps.map((s) => s.step)).toContain('invoice: the CUFE is the one the core computes from what we sent');
  });

  it('fails at the invoice and says DIAN\'s rule when the provider rejects it; the note is not run', async () => {
    const out = quiet();
    const { ok, steps } = await runEInvoiceCheck({ settings: alegraSettings({ enabled: false }), apiUrl: alegra.url, print: out.print });
    expect(ok).toBe(false);
    expect(steps.find((s) => s.step === 'invoice: issued and validated by DIAN')).toMatchObject({ ok: false, detail: expect.stringContaining('REJECTED 92') });
    expect(steps.find((s) => s.step.startsWith('credit note'))).toMatchObject({ ok: false, detail: expect.stringContaining('not run') });
  });

  it('fails the credentials step for credentials the provider refuses', async () => {
    const settings = { ...factusSettings(), password: 'wrong' } as CheckSettings;
    const { steps } = await runEInvoiceCheck({ settings, apiUrl: factus.url, print: quiet().print });
    expect(steps[0]).toMatchObject({ step: 'credentials: accepted, nothing issued', ok: false, detail: expect.stringContaining('EInvoiceAuthError') });
  });

  it('fails where the provider answers a repeat with a second document', async () => {
    const settings = factusSettings();
    const original = factus.documents.length;
    const out = quiet();
    // A Factus that forgot references: each validate is a new document (the double's store is cleared between sends).
    const { steps } = await runEInvoiceCheck({
      settings,
      apiUrl: factus.url,
      print: (line) => {
        out.print(line);
        if (line.startsWith('✓ invoice: issued')) factus.documents.splice(original);
      },
    });
    expect(steps.find((s) => s.step === 'invoice: sent again, the same document (no second invoice)')).toMatchObject({ ok: false });
  });

  it('refuses the providers\' production URLs', async () => {
    const factusRun = await runEInvoiceCheck({ settings: factusSettings(), apiUrl: 'https://api.factus.com.co', print: quiet().print });
    expect(factusRun).toMatchObject({ ok: false, steps: [{ step: 'settings', detail: expect.stringContaining('production') }] });
    const alegraRun = await runEInvoiceCheck({ settings: alegraSettings(), apiUrl: 'https://api.alegra.com/e-provider/col/v1', print: quiet().print });
    expect(alegraRun.ok).toBe(false);
  });
});
