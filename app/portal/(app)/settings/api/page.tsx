// /portal/settings/api (docs/api.md#authentication): the merchant's keys, a new key, revocation, a curl example.
import { Allowed } from '@/components/portal/allowed';
import { SelectField } from '@/components/portal/select-field';
import { Card } from '@/components/portal/card';
import { SensitiveSettingsTop } from '@/components/portal/reauth-card';
import { ActionForm } from '@/components/portal/action-form';
import { DataTable } from '@/components/portal/data-table';
import { getDb } from '@/db/client';
import { fill } from '@/lib/i18n/format';
import { env } from '@/lib/env';
import { API_VERSIONS } from '@/lib/api-versions';
import { listKeys } from '@/lib/portal/api-keys';
import { getPinnedVersion } from '@/lib/portal/api-version';
import { curlExample } from '@/lib/portal/curl';
import { formatDateTime } from '@/lib/portal/i18n';
import { portalLang, requireUser } from '@/lib/portal/request';
import { createKeyAction, revokeKeyAction, saveApiVersionAction } from '@/lib/portal/api-keys/actions';

export default async function ApiSettingsPage() {
  const user = await requireUser();
  const { merchantId } = user;
  const { lang, t } = await portalLang();
  const db = await getDb();
  const [keys, pinned] = await Promise.all([listKeys(db, merchantId), getPinnedVersion(db, merchantId)]);
  const active = keys.filter((k) => !k.revokedAt);
  const copy = { label: t.api.copy, copied: t.api.copied };
  return (
    <>
      <SensitiveSettingsTop title={t.api.title} to="api_keys" user={user} intro={t.api.intro} />
      <Card id="keys" title={t.api.key}>
        {keys.length === 0 ? (
          <p>{t.api.none}</p>
        ) : (
          <DataTable
            labelledBy="keys"
            rows={keys}
            rowKey={(k) => k.key}
            columns={[
              { label: t.api.key, cell: (k) => <code>{k.key}</code> },
              { label: t.api.created, cell: (k) => formatDateTime(k.createdAt, lang) },
              { label: t.api.lastUsed, cell: (k) => (k.lastUsedAt ? formatDateTime(k.lastUsedAt, lang) : t.api.never) },
              { label: t.api.status, cell: (k) => (
                  <>
                    <span className={`badge ${k.revokedAt ? 'neutral' : 'ok'}`}>{k.revokedAt ? t.api.revoked : t.api.active}</span>
                    {k.readOnly && <span className="badge neutral">{t.api.readOnlyBadge}</span>}
                  </>
                ),
              },
              {
                label: t.api.revoke,
                hideLabel: true,
                // Kept for a revoked key too (without its button): the revocation's answer stays shown.
                cell: (k) => (
                  <Allowed to="api_keys">
                    <ActionForm
                      action={revokeKeyAction}
                      submit={t.api.revoke}
                      pending={t.auth.pending}
                      copy={copy}
                      danger
                      done={Boolean(k.revokedAt)}
                      warning={active.length === 1 ? t.api.lastKeyWarning : undefined}
                    >
                      <input type="hidden" name="key" value={k.key} />
                      <span className="visually-hidden">{fill(t.api.revokeKey, { key: k.key })}</span>
                    </ActionForm>
                  </Allowed>
                ),
              },
            ]}
          />
        )}
        <Allowed to="api_keys">
          <ActionForm action={createKeyAction} submit={t.api.create} pending={t.auth.pending} copy={copy}>
            <label className="checkbox">
              <input type="checkbox" name="readOnly" />
              {t.api.readOnly}
            </label>
          </ActionForm>
        </Allowed>
      </Card>
      <Card id="version" title={t.api.versionTitle} intro={t.api.versionIntro}>
        <Allowed to="api_keys">
          <ActionForm action={saveApiVersionAction} submit={t.api.versionSave} pending={t.auth.pending} copy={copy}>
            <SelectField label={t.api.versionLabel} name="apiVersion" defaultValue={pinned} options={API_VERSIONS.map((v) => ({ value: v, label: t.api.versions[v] }))} />
          </ActionForm>
        </Allowed>
      </Card>
      <Card id="example" title={t.api.example}>
        <pre tabIndex={0}>
          <code>{curlExample(env().APP_URL, active[0]?.key)}</code>
        </pre>
      </Card>
    </>
  );
}
