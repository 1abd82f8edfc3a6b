// /portal/check-email: where a sign-up lands; the verification link was e-mailed (docs/portal.md#accounts).
import Link from 'next/link';
import { PublicPage } from '@/components/portal/public-page';
import { portalLang } from '@/lib/portal/request';
import { securityCopy } from '@/lib/portal/security-i18n';

export default async function CheckEmailPage() {
  const s = securityCopy((await portalLang()).lang);
  return (
    <PublicPage title={s.checkEmail.title}>
      <section className="card">
        <p>{s.checkEmail.text}</p>
        <p>
          <Link href="/portal/sign-in">{s.checkEmail.toSignIn}</Link>
        </p>
      </section>
    </PublicPage>
  );
}
