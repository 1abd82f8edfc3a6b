import Link from 'next/link';
import { isProductionDeployment } from '@/lib/processors/secret-box';
import { portalLang } from '@/lib/portal/request';
import { securityCopy } from '@/lib/portal/security-i18n';
import { ActionForm, type FormAction } from './action-form';
import { PortalShell } from './portal-shell';

/**
 * The signed-out pages' one form: sign-in (the e-mail and the password), or sign-up (the merchant's
 * name and the user's before them, and a new password with the hint of what one must be), with a
 * link to the other page. `action` is the page's server action (lib/portal/accounts/actions.ts), passed in.
 */
export async function AccountForm({ kind, action }: { kind: 'signIn' | 'signUp'; action: FormAction }) {
  const { lang, t } = await portalLang();
  const signUp = kind === 'signUp';
  return (
    <PortalShell lang={lang} t={t} testMode={!isProductionDeployment()}>
      <h1>{signUp ? t.auth.signUpTitle : t.auth.signInTitle}</h1>
      <section className="card">
        <ActionForm action={action} submit={signUp ? t.auth.signUp : t.auth.signIn} pending={t.auth.pending} copy={{ label: t.api.copy, copied: t.api.copied }}>
          {signUp && (
            <>
              <label>
                {t.auth.merchantName}
                <input name="merchantName" autoComplete="organization" required maxLength={100} />
              </label>
              <label>
                {t.auth.name}
                <input name="name" autoComplete="name" required maxLength={100} />
              </label>
            </>
          )}
          <label>
            {t.auth.email}
            <input name="email" type="email" autoComplete="username" required />
          </label>
          <label>
            {t.auth.password}
            {signUp ? (
              <input name="password" type="password" autoComplete="new-password" required aria-describedby="password-hint" />
            ) : (
              <input name="password" type="password" autoComplete="current-password" required />
            )}
          </label>
          {signUp && (
            <p id="password-hint" className="hint">
              {t.auth.passwordHint}
            </p>
          )}
        </ActionForm>
      </section>
      <p>{signUp ? <Link href="/portal/sign-in">{t.auth.toSignIn}</Link> : <Link href="/portal/sign-up">{t.auth.toSignUp}</Link>}</p>
      {!signUp && (
        <p>
          <Link href="/portal/forgot-password">{securityCopy(lang).forgot.link}</Link>
        </p>
      )}
    </PortalShell>
  );
}
