// /portal/settings/invoicing (docs/einvoicing.md#settings): Settings → Facturación. Factus or
// Alegra credentials (never shown again), the IVA rate, turning it off, and "Probar", which asks the
// provider whether the saved credentials work and issues nothing. All forms work without JavaScript.
import { Allowed } from '@/components/portal/allowed';
import { SelectField } from '@/components/portal/select-field';
import { Card } from '@/components/portal/card';
import { ActionForm } from '@/components/portal/action-form';
import { SensitiveSettingsTop } from '@/components/portal/reauth-card';
import { getDb } from '@/db/client';
import { fill } from '@/lib/i18n/format';
import { saveAlegraAction, saveFactusAction, testEInvoicingAction, turnEInvoicingOffAction } from '@/lib/portal/einvoicing/actions';
import { einvoicingCopy } from '@/lib/portal/einvoicing-i18n';
import { loadEInvoicingSettings } from '@/lib/portal/einvoicing-page';
import { portalLang, requireUser } from '@/lib/portal/request';

const IVA_VALUES = ['19', '5', '0', 'excluded'] as const;

export default async function InvoicingSettingsPage() {
  const user = await requireUser();
  const { lang, t: portal } = await portalLang();
  const t = einvoicingCopy(lang);
  const { view, resolution } = await loadEInvoicingSettings(await getDb(), user.merchantId);
  const copy = { label: t.copy, copied: t.copied };
  const ivaNow = view ? String(view.iva) : '19';
  const field = (name: keyof typeof t.labels, props: { type?: string; required?: boolean; defaultValue?: string | number; inputMode?: 'numeric' } = {}) => (
    <label key={name}>
      {t.labels[name]}
      <input name={name} type={props.type ?? 'text'} required={props.required ?? true} autoComplete="off" spellCheck={false} defaultValue={props.defaultValue} inputMode={props.inputMode} />
    </label>
  );
  const ivaSelect = <SelectField label={t.labels.iva} name="iva" defaultValue={ivaNow} options={IVA_VALUES.map((v) => ({ value: v, label: t.ivaOptions[v] }))} />;
  return (
    <>
      <SensitiveSettingsTop title={t.title} to="money" user={user} intro={t.intro} />
      <Card id="einvoicing-now" title={t.current}>
        <p data-testid="einvoicing-state">
          {view ? fill(t.on, { provider: view.provider === 'factus' ? 'Factus' : 'Alegra', iva: view.iva === 'excluded' ? t.excluded : `${view.iva} %` }) : t.off}
        </p>
        {view ? (
          <Allowed to="money">
            <ActionForm action={turnEInvoicingOffAction} submit={t.turnOff} pending={portal.auth.pending} copy={copy} danger />
          </Allowed>
        ) : null}
      </Card>
      <Card id="einvoicing-test" title={t.testTitle} intro={t.testIntro}>
        <Allowed to="business">
          <ActionForm action={testEInvoicingAction} submit={t.test} pending={portal.auth.pending} copy={copy} />
        </Allowed>
      </Card>
      <Card id="einvoicing-factus" title={t.factusTitle} intro={t.factusIntro}>
        <Allowed to="money">
          <ActionForm action={saveFactusAction} submit={t.save} pending={portal.auth.pending} copy={copy}>
            {field('clientId')}
            {field('clientSecret', { type: 'password' })}
            {field('username')}
            {field('password', { type: 'password' })}
            {field('numberingRangeId', { required: false, inputMode: 'numeric' })}
            {ivaSelect}
          </ActionForm>
        </Allowed>
      </Card>
      <Card id="einvoicing-alegra" title={t.alegraTitle} intro={t.alegraIntro}>
        <Allowed to="money">
          <ActionForm action={saveAlegraAction} submit={t.save} pending={portal.auth.pending} copy={copy}>
            {field('token', { type: 'password' })}
            {field('companyId')}
            {field('resolutionNumber', { defaultValue: resolution?.number, inputMode: 'numeric' })}
            {field('prefix', { required: false, defaultValue: resolution?.prefix })}
            {field('from', { defaultValue: resolution?.from, inputMode: 'numeric' })}
            {field('to', { defaultValue: resolution?.to, inputMode: 'numeric' })}
            {field('startDate', { defaultValue: resolution?.startDate })}
            {field('endDate', { defaultValue: resolution?.endDate })}
            {field('technicalKey', { defaultValue: resolution?.technicalKey })}
            {ivaSelect}
          </ActionForm>
        </Allowed>
      </Card>
    </>
  );
}
