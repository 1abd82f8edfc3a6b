// /portal/settings/webhooks (docs/webhooks.md#webhook-settings, docs/webhooks.md#delivery, docs/checkout.md#embedding): URL, signing secret, test event, allowed domains.
import { Allowed } from '@/components/portal/allowed';
import { Card } from '@/components/portal/card';
import { SensitiveSettingsTop } from '@/components/portal/reauth-card';
import { ActionForm } from '@/components/portal/action-form';
import { CopyButton } from '@/components/portal/copy-button';
import { WebhookEventChoice } from '@/components/portal/webhook-event-choice';
import { getDb } from '@/db/client';
import { fill } from '@/lib/i18n/format';
import { formatDateTime } from '@/lib/portal/i18n';
import { portalLang, requireUser } from '@/lib/portal/request';
import { getWebhookSettings } from '@/lib/portal/webhook-settings';
import {
  generateSecretAction,
  rollSecretAction,
  reenableWebhookAction,
  saveDomainsAction,
  saveSecretAction,
  saveWebhookRetriesAction,
  saveWebhookUrlAction,
  saveWebhookEventsAction,
  sendTestEventAction,
} from '@/lib/portal/webhooks/actions';

export default async function WebhookSettingsPage() {
  const user = await requireUser();
  const { merchantId } = user;
  const { t, lang } = await portalLang();
  const settings = await getWebhookSettings(await getDb(), merchantId);
  const w = t.webhooks;
  const copy = { label: t.api.copy, copied: t.api.copied };
  return (
    <>
      <SensitiveSettingsTop title={w.title} to="webhooks" user={user} />
      <Card id="url" title={w.urlLabel}>
        <Allowed to="webhooks">
          <ActionForm action={saveWebhookUrlAction} submit={w.save} pending={t.auth.pending} copy={copy}>
            <label>
              {w.urlLabel}
              <input name="webhookUrl" type="url" inputMode="url" defaultValue={settings.webhookUrl ?? ''} aria-describedby="url-hint" />
            </label>
            <p id="url-hint" className="hint">
              {w.urlHint}
            </p>
          </ActionForm>
        </Allowed>
      </Card>
      {settings.webhookDisabledAt && (
        <Card id="disabled" title={w.disabledTitle}>
          <p className="warning">{fill(w.disabled, { date: formatDateTime(settings.webhookDisabledAt, lang) })}</p>
          <Allowed to="webhooks">
            <ActionForm action={reenableWebhookAction} submit={w.reenable} pending={t.auth.pending} copy={copy} />
          </Allowed>
        </Card>
      )}
      <Card id="retries" title={w.retriesTitle}>
        <p id="retries-intro">{w.retriesIntro}</p>
        <Allowed to="webhooks">
          <ActionForm action={saveWebhookRetriesAction} submit={w.retriesSave} pending={t.auth.pending} copy={copy}>
            <label className="checkbox">
              <input type="checkbox" name="webhookRetries" defaultChecked={settings.webhookRetries} aria-describedby="retries-intro" />
              {w.retriesLabel}
            </label>
          </ActionForm>
        </Allowed>
      </Card>
      <Card id="secret" title={w.secretTitle} intro={w.secretIntro}>
        <Allowed to="webhooks">
          <details>
            <summary>{w.reveal}</summary>
            <pre tabIndex={0}>
              <code data-testid="webhook-secret">{settings.webhookSecret}</code>
            </pre>
            <CopyButton value={settings.webhookSecret} label={copy.label} copiedLabel={copy.copied} />
          </details>
          <ActionForm action={rollSecretAction} submit={w.roll} pending={t.auth.pending} copy={copy}>
            <p className="hint">{w.rollHint}</p>
          </ActionForm>
          <ActionForm action={generateSecretAction} submit={w.generate} pending={t.auth.pending} copy={copy} />
          <h3>{w.ownSecret}</h3>
          <ActionForm action={saveSecretAction} submit={w.saveSecret} pending={t.auth.pending} copy={copy}>
            <label>
              {w.ownSecretLabel}
              <input name="webhookSecret" autoComplete="off" spellCheck={false} aria-describedby="secret-hint" />
            </label>
            <p id="secret-hint" className="hint">
              {w.ownSecretHint}
            </p>
          </ActionForm>
        </Allowed>
      </Card>
      <Allowed to="webhooks">
        <WebhookEventChoice lang={lang} chosen={settings.webhookEvents} pending={t.auth.pending} copy={copy} save={saveWebhookEventsAction} />
      </Allowed>
      <Card id="test" title={w.testTitle} intro={w.testIntro}>
        <Allowed to="events">
          <ActionForm action={sendTestEventAction} submit={w.test} pending={t.auth.pending} copy={copy} />
        </Allowed>
      </Card>
      <Card id="domains" title={w.domainsTitle}>
        <ul id="domains-rules" className="hint">
          {w.domainsRules.map((rule) => (
            <li key={rule}>{rule}</li>
          ))}
        </ul>
        <Allowed to="webhooks">
          <ActionForm action={saveDomainsAction} submit={w.save} pending={t.auth.pending} copy={copy}>
            <label>
              {w.domainsLabel}
              <textarea name="allowedDomains" rows={4} defaultValue={settings.allowedDomains.join('\n')} aria-describedby="domains-rules" spellCheck={false} />
            </label>
          </ActionForm>
        </Allowed>
      </Card>
    </>
  );
}
