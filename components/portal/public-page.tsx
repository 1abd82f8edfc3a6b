import type { ReactNode } from 'react';
import { isProductionDeployment } from '@/lib/processors/secret-box';
import { portalLang } from '@/lib/portal/request';
import { PortalShell } from './portal-shell';

/** A signed-out portal page (verification, password reset): the portal's frame without navigation, one heading. */
export async function PublicPage({ title, children }: { title: string; children: ReactNode }) {
  const { lang, t } = await portalLang();
  return (
    <PortalShell lang={lang} t={t} testMode={!isProductionDeployment()}>
      <h1>{title}</h1>
      {children}
    </PortalShell>
  );
}
