// /portal/sign-in/two-factor: the sign-in's second step for a user with TOTP (docs/portal.md#accounts).
import Link from 'next/link';
import { PublicFormPage } from '@/components/portal/public-form-page';
import { twoFactorSignInAction } from '@/lib/portal/accounts/actions';
import { portalLang } from '@/lib/portal/request';
import { securityCopy } from '@/lib/portal/security-i18n';

export default async function TwoFactorSignInPage() {
  const s = securityCopy((await portalLang()).lang);
  return (
    <PublicFormPage
      title={s.twoFactor.signInTitle}
      text={s.twoFactor.signInText}
      action={twoFactorSignInAction}
      submit={s.twoFactor.signIn}
      links={<Link href="/portal/sign-in">{s.checkEmail.toSignIn}</Link>}
    >
      <label>
        {s.twoFactor.codeOrBackup}
        <input name="code" autoComplete="one-time-code" required maxLength={32} />
      </label>
    </PublicFormPage>
  );
}
