// /portal/verify-email?token=: the e-mailed link's page. Confirming is a form (a POST), so a mail
// scanner that opens the link verifies nothing and gets no session.
import type { Metadata } from 'next';
import { PublicFormPage } from '@/components/portal/public-form-page';
import { firstParam } from '@/lib/search-params';
import { verifyEmailAction } from '@/lib/portal/accounts/actions';
import { portalLang } from '@/lib/portal/request';
import { securityCopy } from '@/lib/portal/security-i18n';

// The token in the URL never leaves this site; under no-referrer the form would post `Origin: null`,
// which Server Actions refuse.
export const metadata: Metadata = { referrer: 'same-origin' };

export default async function VerifyEmailPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const s = securityCopy((await portalLang()).lang);
  const token = firstParam((await searchParams).token) ?? '';
  return <PublicFormPage title={s.verify.title} text={s.verify.text} action={verifyEmailAction} submit={s.verify.submit} token={token} />;
}
