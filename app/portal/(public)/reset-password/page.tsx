// /portal/reset-password?token=: a new password from the e-mailed link (docs/portal.md#accounts).
import type { Metadata } from 'next';
import Link from 'next/link';
import { NewPasswordField } from '@/components/portal/new-password-field';
import { PublicFormPage } from '@/components/portal/public-form-page';
import { firstParam } from '@/lib/search-params';
import { resetPasswordAction } from '@/lib/portal/accounts/actions';
import { portalLang } from '@/lib/portal/request';
import { securityCopy } from '@/lib/portal/security-i18n';

// The token in the URL never leaves this site; under no-referrer the form would post `Origin: null`,
// which Server Actions refuse.
export const metadata: Metadata = { referrer: 'same-origin' };

export default async function ResetPasswordPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { lang, t } = await portalLang();
  const s = securityCopy(lang);
  return (
    <PublicFormPage
      title={s.reset.title}
      action={resetPasswordAction}
      submit={s.reset.submit}
      token={firstParam((await searchParams).token) ?? ''}
      links={
        <>
          <Link href="/portal/sign-in">{s.checkEmail.toSignIn}</Link> · <Link href="/portal/forgot-password">{s.reset.again}</Link>
        </>
      }
    >
      <NewPasswordField name="password" label={s.security.next} hint={t.auth.passwordHint} hintId="password-hint" />
    </PublicFormPage>
  );
}
