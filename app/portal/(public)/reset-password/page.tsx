// /portal/reset-password?token=: a new password from the e-mailed link (docs/portal.md#accounts).
import type { Metadata } from 'next';
import Link from 'next/link';
import { ActionForm } from '@/components/portal/action-form';
import { PublicPage } from '@/components/portal/public-page';
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
  const token = firstParam((await searchParams).token) ?? '';
  return (
    <PublicPage title={s.reset.title}>
      <section className="card">
        <ActionForm action={resetPasswordAction} submit={s.reset.submit} pending={t.auth.pending} copy={{ label: t.api.copy, copied: t.api.copied }}>
          <input type="hidden" name="token" value={token} />
          <label>
            {s.security.next}
            <input name="password" type="password" autoComplete="new-password" required aria-describedby="password-hint" />
          </label>
          <p id="password-hint" className="hint">
            {t.auth.passwordHint}
          </p>
        </ActionForm>
      </section>
      <p>
        <Link href="/portal/sign-in">{s.checkEmail.toSignIn}</Link> · <Link href="/portal/forgot-password">{s.reset.again}</Link>
      </p>
    </PublicPage>
  );
}
