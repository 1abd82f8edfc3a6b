// /portal/settings/security (docs/portal.md#accounts): the password and the second factor.
import { Card } from '@/components/portal/card';
import { ActionForm } from '@/components/portal/action-form';
import { getDb } from '@/db/client';
import { DataTable } from '@/components/portal/data-table';
import { NewPasswordField } from '@/components/portal/new-password-field';
import { listSessions } from '@/lib/portal/accounts';
import { formatDateTime } from '@/lib/portal/i18n';
import { changePasswordAction, confirmTwoFactorAction, endSessionAction, disableTwoFactorAction, startTwoFactorAction } from '@/lib/portal/accounts/actions';
import { portalLang, requireAccount, secondFactorMissing } from '@/lib/portal/request';
import { securityCopy } from '@/lib/portal/security-i18n';
import { twoFactorState } from '@/lib/portal/two-factor';

export default async function SecuritySettingsPage({ searchParams }: { searchParams: Promise<{ required?: string; factor?: string; password?: string }> }) {
  const user = await requireAccount();
  const params = await searchParams;
  // Sent here by requireUser: an owner of a production deployment without a second factor.
  const required = secondFactorMissing(user) && params.required === '1';
  const { lang, t } = await portalLang();
  const s = securityCopy(lang);
  const db = await getDb();
  const [factor, sessions] = await Promise.all([twoFactorState(db, user.userId), listSessions(db, user)]);
  const copy = { label: t.api.copy, copied: t.api.copied };
  return (
    <>
      <h1>{s.security.title}</h1>
      {required && (
        <p className="warning" role="alert">
          {s.twoFactor.required}
        </p>
      )}
      <p>{s.security.intro}</p>
      <Card id="two-factor" title={s.twoFactor.title} intro={factor === 'on' ? s.twoFactor.on : factor === 'pending' ? s.twoFactor.pending : s.twoFactor.off}>
        {/* Where turning it on or off lands (lib/portal/accounts/actions.ts). */}
        {params.factor === factor && (factor === 'on' || factor === 'off') && (
          <p role="status" className="result ok">
            {factor === 'on' ? s.twoFactor.confirmed : s.twoFactor.disabled}
          </p>
        )}
        {factor !== 'on' && (
          <ActionForm action={startTwoFactorAction} submit={s.twoFactor.start} pending={t.auth.pending} copy={copy}>
            <label>
              {t.auth.password}
              <input name="password" type="password" autoComplete="current-password" required />
            </label>
          </ActionForm>
        )}
        {factor === 'pending' && (
          <ActionForm action={confirmTwoFactorAction} submit={s.twoFactor.confirm} pending={t.auth.pending} copy={copy}>
            <label>
              {s.twoFactor.code}
              <input name="code" autoComplete="one-time-code" inputMode="numeric" pattern="[0-9]{6}" required maxLength={6} />
            </label>
          </ActionForm>
        )}
        {factor === 'on' && (
          <ActionForm action={disableTwoFactorAction} submit={s.twoFactor.disable} pending={t.auth.pending} copy={copy} danger>
            <label>
              {t.auth.password}
              <input name="password" type="password" autoComplete="current-password" required />
            </label>
            <label>
              {s.twoFactor.codeOrBackup}
              <input name="code" autoComplete="one-time-code" required maxLength={32} />
            </label>
          </ActionForm>
        )}
      </Card>
      <Card id="sessions" title={s.security.sessionsTitle}>
        <DataTable
          labelledBy="sessions"
          rows={sessions}
          rowKey={(r) => r.id}
          columns={[
            { label: s.security.device, cell: (r) => r.userAgent ?? '—' },
            { label: s.security.address, cell: (r) => r.ipAddress ?? '—' },
            { label: s.security.started, cell: (r) => formatDateTime(r.createdAt, lang) },
            {
              label: s.security.end,
              hideLabel: true,
              cell: (r) =>
                r.current ? (
                  s.security.thisOne
                ) : (
                  <ActionForm action={endSessionAction} submit={s.security.end} pending={t.auth.pending} copy={copy} danger>
                    <input type="hidden" name="sessionId" value={r.id} />
                  </ActionForm>
                ),
            },
          ]}
        />
      </Card>
      <Card id="password" title={s.security.passwordTitle}>
        {params.password === 'changed' && (
          <p role="status" className="result ok">
            {s.security.changed}
          </p>
        )}
        <ActionForm action={changePasswordAction} submit={s.security.change} pending={t.auth.pending} copy={copy}>
          <label>
            {s.security.current}
            <input name="currentPassword" type="password" autoComplete="current-password" required />
          </label>
          <NewPasswordField name="newPassword" label={s.security.next} hint={t.auth.passwordHint} hintId="new-password-hint" />
        </ActionForm>
      </Card>
    </>
  );
}
