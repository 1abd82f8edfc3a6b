import { Allowed } from '@/components/portal/allowed';
import { ActionForm } from '@/components/portal/action-form';
import { getDb } from '@/db/client';
import { fill } from '@/lib/i18n/format';
import { reauthenticateAction } from '@/lib/portal/accounts/actions';
import type { PortalUser } from '@/lib/portal/accounts';
import { formatDateTime } from '@/lib/portal/i18n';
import { reauthenticatedUntil } from '@/lib/portal/reauth';
import type { Permission } from '@/lib/portal/roles';
import { portalLang } from '@/lib/portal/request';
import { securityCopy } from '@/lib/portal/security-i18n';
import { twoFactorState } from '@/lib/portal/two-factor';

/**
 * "Confirme su identidad" on a page of sensitive settings (lib/portal/reauth.ts): the password, and
 * the code when the user has a second factor; or until when this session is already confirmed.
 */
export async function ReauthCard({ user }: { user: PortalUser }) {
  const { lang, t } = await portalLang();
  const s = securityCopy(lang);
  const db = await getDb();
  const [until, factor] = await Promise.all([reauthenticatedUntil(db, user), twoFactorState(db, user.userId)]);
  return (
    <section className="card" aria-labelledby="reauth">
      <h2 id="reauth">{s.reauth.title}</h2>
      <p>{until ? fill(s.reauth.until, { time: formatDateTime(until, lang) }) : s.reauth.text}</p>
      <ActionForm action={reauthenticateAction} submit={s.reauth.submit} pending={t.auth.pending} copy={{ label: t.api.copy, copied: t.api.copied }}>
        <label>
          {t.auth.password}
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        {factor === 'on' && (
          <label>
            {s.twoFactor.codeOrBackup}
            <input name="code" autoComplete="one-time-code" inputMode="text" required maxLength={32} />
          </label>
        )}
      </ActionForm>
    </section>
  );
}

/** The top of a page of sensitive settings: its heading, the card above for a role that may change them, its intro. */
export function SensitiveSettingsTop({ title, to, user, intro }: { title: string; to: Permission; user: PortalUser; intro?: string }) {
  return (
    <>
      <h1>{title}</h1>
      <Allowed to={to}>
        <ReauthCard user={user} />
      </Allowed>
      {intro !== undefined && <p>{intro}</p>}
    </>
  );
}
