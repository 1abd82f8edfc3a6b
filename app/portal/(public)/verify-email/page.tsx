// /portal/verify-email?token=: the e-mailed link's page. Confirming is a form (a POST), so a mail
// scanner that opens the link verifies nothing and gets no session.
import type { Metadata } from 'next';
import { ActionForm } from '@/components/portal/action-form';
import { PublicPage } from '@/components/portal/public-page';
import { firstParam } from '@/lib/search-params';
import { verifyEmailAction } from '@/lib/portal/accounts/actions';
import { portalLang } from '@/lib/portal/request';
import { securityCopy } from '@/lib/portal/security-i18n';

// The token in the URL never leaves this site; under no-referrer the form would post `Origin: null`,
// which Server Actions refuse.
export const metadata: Metadata = { referrer: 'same-origin' };

export default async function VerifyEmailPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { lang, t } = await portalLang();
  const s = securityCopy(lang);
  const token = firstParam((await searchParams).token) ?? '';
  return (
    <PublicPage title={s.verify.title}>
      <section className="card">
        <p>{s.verify.text}</p>
        <ActionForm action={verifyEmailAction} submit={s.verify.submit} pending={t.auth.pending} copy={{ label: t.api.copy, copied: t.api.copied }}>
          <input type="hidden" name="token" value={token} />
        </ActionForm>
      </section>
    </PublicPage>
  );
}
