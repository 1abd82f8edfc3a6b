// /portal/sign-up: a new merchant and its first user.
import Link from 'next/link';
import { ActionForm } from '@/components/portal/action-form';
import { PortalShell } from '@/components/portal/portal-shell';
import { isProductionDeployment } from '@/lib/payments/secret-box';
import { portalLang } from '@/lib/portal/request';
import { signUpAction } from '../../actions';

export default async function SignUpPage() {
  const { lang, t } = await portalLang();
  return (
    <PortalShell lang={lang} t={t} testMode={!isProductionDeployment()}>
      <h1>{t.auth.signUpTitle}</h1>
      <section className="card">
        <ActionForm action={signUpAction} submit={t.auth.signUp} pending={t.auth.pending} copy={{ label: t.api.copy, copied: t.api.copied }}>
          <label>
            {t.auth.merchantName}
            <input name="merchantName" autoComplete="organization" required maxLength={100} />
          </label>
          <label>
            {t.auth.name}
            <input name="name" autoComplete="name" required maxLength={100} />
          </label>
          <label>
            {t.auth.email}
            <input name="email" type="email" autoComplete="username" required />
          </label>
          <label>
            {t.auth.password}
            <input name="password" type="password" autoComplete="new-password" required aria-describedby="password-hint" />
          </label>
          <p id="password-hint" className="hint">
            {t.auth.passwordHint}
          </p>
        </ActionForm>
      </section>
      <p>
        <Link href="/portal/sign-in">{t.auth.toSignIn}</Link>
      </p>
    </PortalShell>
  );
}
