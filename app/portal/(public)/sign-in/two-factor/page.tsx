// /portal/sign-in/two-factor: the sign-in's second step for a user with TOTP (docs/portal.md#accounts).
import Link from 'next/link';
import { ActionForm } from '@/components/portal/action-form';
import { PublicPage } from '@/components/portal/public-page';
import { twoFactorSignInAction } from '@/lib/portal/accounts/actions';
import { portalLang } from '@/lib/portal/request';
import { securityCopy } from '@/lib/portal/security-i18n';

export default async function TwoFactorSignInPage() {
  const { lang, t } = await portalLang();
  const s = securityCopy(lang);
  return (
    <PublicPage title={s.twoFactor.signInTitle}>
      <section className="card">
        <p>{s.twoFactor.signInText}</p>
        <ActionForm action={twoFactorSignInAction} submit={s.twoFactor.signIn} pending={t.auth.pending} copy={{ label: t.api.copy, copied: t.api.copied }}>
          <label>
            {s.twoFactor.codeOrBackup}
            <input name="code" autoComplete="one-time-code" required maxLength={32} />
          </label>
        </ActionForm>
      </section>
      <p>
        <Link href="/portal/sign-in">{s.checkEmail.toSignIn}</Link>
      </p>
    </PublicPage>
  );
}
