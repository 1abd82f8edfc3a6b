// /portal/forgot-password: asks for a reset link by e-mail (docs/portal.md#accounts).
import { PublicFormPage } from '@/components/portal/public-form-page';
import { forgotPasswordAction } from '@/lib/portal/accounts/actions';
import { portalLang } from '@/lib/portal/request';
import { securityCopy } from '@/lib/portal/security-i18n';

export default async function ForgotPasswordPage() {
  const { lang, t } = await portalLang();
  const s = securityCopy(lang);
  return (
    <PublicFormPage title={s.forgot.title} text={s.forgot.text} action={forgotPasswordAction} submit={s.forgot.submit}>
      <label>
        {t.auth.email}
        <input name="email" type="email" autoComplete="username" required />
      </label>
    </PublicFormPage>
  );
}
