// The 403 page (`forbidden()`): a portal user opening another merchant's plan or event by URL.
import { PortalShell } from '@/components/portal/portal-shell';
import { isProductionDeployment } from '@/lib/processors/secret-box';
import { portalLang } from '@/lib/portal/request';

export default async function Forbidden() {
  const { lang, t } = await portalLang();
  return (
    <PortalShell lang={lang} t={t} testMode={!isProductionDeployment()}>
      <h1>{t.forbidden.title}</h1>
      <p>{t.forbidden.text}</p>
      <p>
        {/* A plain link: next/link here, at the root, would load its client code on every page,
            the checkout's included (docs/benchmarks.md, widget). */}
        <a href="/portal/activity">{t.activity.back}</a>
      </p>
    </PortalShell>
  );
}
