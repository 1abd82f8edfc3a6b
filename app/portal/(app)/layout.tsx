// Every signed-in portal page: its user (or a redirect to sign in), the sections and sign-out.
import Link from 'next/link';
import type { ReactNode } from 'react';
import { PortalShell } from '@/components/portal/portal-shell';
import { processorCopy } from '@/lib/portal/processor-i18n';
import { portalLang, requireUser } from '@/lib/portal/request';
import { signOutAction, signOutEverywhereAction } from '../actions';

export default async function SignedInLayout({ children }: { children: ReactNode }) {
  const user = await requireUser();
  const { lang, t } = await portalLang();
  const nav = (
    <>
      <nav aria-label={t.nav.label}>
        <ul>
          <li>
            <Link href="/portal/activity">{t.nav.activity}</Link>
          </li>
          <li>
            <Link href="/portal/settings/api">{t.nav.api}</Link>
          </li>
          <li>
            <Link href="/portal/settings/webhooks">{t.nav.webhooks}</Link>
          </li>
          <li>
            <Link href="/portal/settings/processor">{processorCopy(lang).nav}</Link>
          </li>
        </ul>
      </nav>
      <div className="account">
        <span>{user.email}</span>
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
    <PortalShell lang={lang} t={t} nav={nav}>
      {children}
    </PortalShell>
  );
}
