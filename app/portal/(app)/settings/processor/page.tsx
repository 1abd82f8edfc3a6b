// /portal/settings/processor (docs/portal.md): the merchant's processor: its Wompi keys (secrets
// never shown again), the events URL to paste into Wompi, and why production needs keys.
import { Allowed } from '@/components/portal/allowed';
import { Card } from '@/components/portal/card';
import { SensitiveSettingsTop } from '@/components/portal/reauth-card';
import { ActionForm } from '@/components/portal/action-form';
import { CopyButton } from '@/components/portal/copy-button';
import { getDb } from '@/db/client';
import { fill } from '@/lib/checkout/i18n';
import { maskSecret, processorCopy } from '@/lib/portal/processor-i18n';
import { loadProcessorPage } from '@/lib/portal/processor-page';
import { portalLang, requireUser } from '@/lib/portal/request';
import { saveWompiKeysAction, useSandboxAction } from '@/lib/portal/processor/actions';
import { saveRenewalSettingsAction } from '@/lib/portal/customers/actions';
import { AwaitingRenewals, RenewalSettings } from '@/components/portal/renewal-settings';

const FIELDS = ['publicKey', 'privateKey', 'eventsSecret', 'integritySecret'] as const;

export default async function ProcessorSettingsPage() {
  const user = await requireUser();
  const { merchantId } = user;
  const { lang, t } = await portalLang();
  const p = processorCopy(lang);
  const { settings, merchant, awaiting } = await loadProcessorPage(await getDb(), merchantId);
  const copy = { label: p.copy, copied: p.copied };
  const wompi = settings.type === 'wompi';
  return (
    <>
      <SensitiveSettingsTop title={p.title} to="money" user={user} intro={p.intro} />
      <Card id="current" title={p.current}>
        <p data-testid="processor-type">{wompi ? p.wompi : p.sandbox}</p>
        {wompi ? (
          <p>
            {p.publicKey}: <code>{settings.publicKey}</code>
          </p>
        ) : null}
        {settings.production && !wompi ? (
          <p role="alert" className="hint">
            {p.productionNoKeys}
          </p>
        ) : null}
      </Card>
      <Card id="keys" title={p.keysTitle}>
        <p id="keys-hint">{p.keysIntro}</p>
        <p className="hint">{fill(p.prefixes, { prefixes: FIELDS.map((f) => settings.prefixes[f]).join(', ') })}</p>
        {settings.plansWompiWouldRefuse > 0 ? (
          <p role="alert" className="hint" data-testid="off-amount">
            {fill(p.offAmount, { count: settings.plansWompiWouldRefuse })}
          </p>
        ) : null}
        <Allowed to="money">
          <ActionForm action={saveWompiKeysAction} submit={p.save} pending={t.auth.pending} copy={copy}>
            {FIELDS.map((field) => (
              <label key={field}>
                {p.labels[field]}
                <input
                  name={field}
                  type={field === 'publicKey' ? 'text' : 'password'}
                  required
                  autoComplete="off"
                  spellCheck={false}
                  defaultValue={field === 'publicKey' ? (settings.publicKey ?? '') : ''}
                  placeholder={wompi && field !== 'publicKey' ? fill(p.stored, { masked: maskSecret(settings.prefixes[field]) }) : settings.prefixes[field]}
                  aria-describedby="keys-hint"
                />
              </label>
            ))}
          </ActionForm>
        </Allowed>
      </Card>
      <Card id="events" title={p.eventsTitle} intro={p.eventsIntro}>
        <pre tabIndex={0}>
          <code data-testid="events-url">{settings.eventsUrl}</code>
        </pre>
        <CopyButton value={settings.eventsUrl} label={copy.label} copiedLabel={copy.copied} />
      </Card>
      {wompi ? (
        <Card id="sandbox" title={p.sandboxTitle} intro={p.sandboxIntro}>
          <Allowed to="money">
            <ActionForm action={useSandboxAction} submit={p.useSandbox} pending={t.auth.pending} copy={copy} danger />
          </Allowed>
        </Card>
      ) : null}
      {merchant ? <RenewalSettings lang={lang} settings={merchant} pending={t.auth.pending} copy={copy} save={saveRenewalSettingsAction} /> : null}
      <AwaitingRenewals lang={lang} awaiting={awaiting} copy={copy} />
    </>
  );
}
