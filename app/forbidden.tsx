// The 403 page (`forbidden()`): a portal user opening another merchant's plan or event by URL.
import Link from 'next/link';
import { PortalShell } from '@/components/portal/portal-shell';
import { isProductionDeployment } from '@/lib/payments/secret-box';
import { portalLang } from '@/lib/portal/request';

export default async function Forbidden() {
  const { lang, t } = await portalLang();
  return (
    <PortalShell lang={lang} t={t} testMode={!isProductionDeployment()}>
      <h1>{t.forbidden.title}</h1>
      <p>{t.forbidden.text}</p>
      <p>
        <Link href="/portal/activity">{t.activity.back}</Link>
      </p>
    </PortalShell>
  );
}
