// /portal/sign-in
import Link from 'next/link';
import { ActionForm } from '@/components/portal/action-form';
import { PortalShell } from '@/components/portal/portal-shell';
import { isProductionDeployment } from '@/lib/payments/secret-box';
import { portalLang } from '@/lib/portal/request';
import { signInAction } from '../../actions';

export default async function SignInPage() {
  const { lang, t } = await portalLang();
  return (
    <PortalShell lang={lang} t={t} testMode={!isProductionDeployment()}>
      <h1>{t.auth.signInTitle}</h1>
      <section className="card">
        <ActionForm action={signInAction} submit={t.auth.signIn} pending={t.auth.pending} copy={{ label: t.api.copy, copied: t.api.copied }}>
          <label>
            {t.auth.email}
            <input name="email" type="email" autoComplete="username" required />
          </label>
          <label>
            {t.auth.password}
            <input name="password" type="password" autoComplete="current-password" required />
          </label>
        </ActionForm>
      </section>
      <p>
        <Link href="/portal/sign-up">{t.auth.toSignUp}</Link>
      </p>
    </PortalShell>
  );
}
