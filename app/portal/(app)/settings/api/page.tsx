// /portal/settings/api (SPEC 5.2): the merchant's keys, a new key, revocation, a curl example.
import { ActionForm } from '@/components/portal/action-form';
import { getDb } from '@/db/client';
import { fill } from '@/lib/i18n/format';
import { env } from '@/lib/env';
import { listKeys } from '@/lib/portal/api-keys';
import { curlExample } from '@/lib/portal/curl';
import { formatDateTime } from '@/lib/portal/i18n';
import { portalLang, requireUser } from '@/lib/portal/request';
import { createKeyAction, revokeKeyAction } from '../../../actions';

export default async function ApiSettingsPage() {
  const { merchantId } = await requireUser();
  const { lang, t } = await portalLang();
  const keys = await listKeys(await getDb(), merchantId);
  const active = keys.filter((k) => !k.revokedAt);
  const copy = { label: t.api.copy, copied: t.api.copied };
  return (
    <>
      <h1>{t.api.title}</h1>
      <p>{t.api.intro}</p>
      <section className="card" aria-labelledby="keys">
        <h2 id="keys">{t.api.key}</h2>
        {keys.length === 0 ? (
          <p>{t.api.none}</p>
        ) : (
          <div className="table-scroll" tabIndex={0} role="region" aria-labelledby="keys">
            <table>
              <thead>
                <tr>
                  <th scope="col">{t.api.key}</th>
                  <th scope="col">{t.api.created}</th>
                  <th scope="col">{t.api.lastUsed}</th>
                  <th scope="col">{t.api.status}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t.api.revoke}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.map((k) => (
                  <tr key={k.key}>
                    <td>
                      <code>{k.key}</code>
                    </td>
                    <td>{formatDateTime(k.createdAt, lang)}</td>
                    <td>{k.lastUsedAt ? formatDateTime(k.lastUsedAt, lang) : t.api.never}</td>
                    <td>{k.revokedAt ? t.api.revoked : t.api.active}</td>
                    <td>
                      {/* Kept for a revoked key too (without its button): the revocation's answer stays shown. */}
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
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <ActionForm action={createKeyAction} submit={t.api.create} pending={t.auth.pending} copy={copy} />
      </section>
      <section className="card" aria-labelledby="example">
        <h2 id="example">{t.api.example}</h2>
        <pre tabIndex={0}>
          <code>{curlExample(env().APP_URL, active[0]?.key)}</code>
        </pre>
      </section>
    </>
  );
}
