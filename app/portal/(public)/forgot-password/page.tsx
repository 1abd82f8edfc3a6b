// /portal/forgot-password: asks for a reset link by e-mail (docs/portal.md#accounts).
import { ActionForm } from '@/components/portal/action-form';
import { PublicPage } from '@/components/portal/public-page';
import { forgotPasswordAction } from '@/lib/portal/accounts/actions';
import { portalLang } from '@/lib/portal/request';
import { securityCopy } from '@/lib/portal/security-i18n';

export default async function ForgotPasswordPage() {
  const { lang, t } = await portalLang();
  const s = securityCopy(lang);
  return (
    <PublicPage title={s.forgot.title}>
      <section className="card">
        <p>{s.forgot.text}</p>
        <ActionForm action={forgotPasswordAction} submit={s.forgot.submit} pending={t.auth.pending} copy={{ label: t.api.copy, copied: t.api.copied }}>
          <label>
            {t.auth.email}
            <input name="email" type="email" autoComplete="username" required />
          </label>
        </ActionForm>
      </section>
    </PublicPage>
  );
}
