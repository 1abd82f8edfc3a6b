// Every signed-in portal page: its user (or a redirect to sign in), the sections and sign-out.
import type { ReactNode } from 'react';
import { PortalNav } from '@/components/portal/portal-nav';
import { PortalShell } from '@/components/portal/portal-shell';
import { getDb } from '@/db/client';
import { auditCopy } from '@/lib/portal/audit-i18n';
import { couponsCopy } from '@/lib/portal/coupons-i18n';
import { einvoicingCopy } from '@/lib/portal/einvoicing-i18n';
import { processorCopy } from '@/lib/portal/processor-i18n';
import { loadPortalFrame } from '@/lib/portal/frame';
import { portalLang, requireAccount } from '@/lib/portal/request';
import { signOutAction, signOutEverywhereAction } from '@/lib/portal/accounts/actions';
import { sandboxToolsShown } from '@/lib/portal/sandbox-page';
import { sandboxCopy } from '@/lib/portal/sandbox-i18n';
import { membersCopy } from '@/lib/portal/members-i18n';
import { securityCopy } from '@/lib/portal/security-i18n';

export default async function SignedInLayout({ children }: { children: ReactNode }) {
  const user = await requireAccount();
  const { lang, t } = await portalLang();
  const frame = await loadPortalFrame(await getDb(), user.merchantId, lang);
  const sandbox = sandboxCopy(lang);
  const groups = [
    {
      label: t.nav.business,
      links: [
        { href: '/portal/overview', text: t.nav.overview },
        { href: '/portal/activity', text: t.nav.activity },
        { href: '/portal/transactions', text: t.nav.transactions },
        { href: '/portal/coupons', text: couponsCopy(lang).nav },
        { href: '/portal/invoices', text: einvoicingCopy(lang).invoicesNav },
      ],
    },
    {
      label: t.nav.settings,
      links: [
        { href: '/portal/settings/api', text: t.nav.api },
        { href: '/portal/settings/webhooks', text: t.nav.webhooks },
        { href: '/portal/settings/processor', text: processorCopy(lang).nav },
        { href: '/portal/settings/members', text: membersCopy(lang).nav },
        { href: '/portal/settings/invoicing', text: einvoicingCopy(lang).nav },
        { href: '/portal/settings/security', text: securityCopy(lang).nav },
        { href: '/portal/settings/audit', text: auditCopy(lang).nav },
      ],
    },
    // Development and sandbox deployments only (docs/portal.md#pruebas).
    ...(sandboxToolsShown()
      ? [
          {
            label: sandbox.nav,
            links: [
              { href: '/portal/sandbox/clock', text: sandbox.clockNav },
              { href: '/portal/sandbox/emails', text: sandbox.emailsNav },
            ],
          },
        ]
      : []),
  ];
  const nav = (
    <>
      <PortalNav label={t.nav.label} groups={groups} />
      <div className="account">
        <p className="portal-nav-label">{t.nav.account}</p>
        <p className="account-email">{user.email}</p>
        <form action={signOutAction}>
          <button type="submit" className="secondary">
            {t.signOut}
          </button>
        </form>
        <form action={signOutEverywhereAction}>
          <button type="submit" className="secondary">
            {t.signOutEverywhere}
          </button>
        </form>
      </div>
    </>
  );
  return (
    <PortalShell lang={lang} t={t} nav={nav} testMode={frame.testMode} suspended={frame.suspended} notices={frame.notices}>
      {children}
    </PortalShell>
  );
}
