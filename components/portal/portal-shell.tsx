import type { ReactNode } from 'react';
import { LANG_TAG, type Lang } from '@/lib/i18n/locale';
import type { PortalCopy } from '@/lib/portal/i18n';

/**
 * The portal's frame: skip link, test-mode band, title, language switch and the page in its
 * language. `testMode` is decided by the caller (lib/portal/processor-settings.ts, inTestMode).
 */
export function PortalShell({ lang, t, nav, testMode, children }: { lang: Lang; t: PortalCopy; nav?: ReactNode; testMode: boolean; children: ReactNode }) {
  return (
    <div lang={LANG_TAG[lang]} className="portal">
      <a className="skip" href="#main">
        {t.skip}
      </a>
      <header className="portal-header">
        {testMode && (
          <p className="sandbox-banner" data-testid="test-mode">
            <strong>{t.sandbox.label}</strong>
            {t.sandbox.text}
          </p>
        )}
        <p className="portal-title">ServicePay · {t.title}</p>
        {/* A plain link, not next/link: the switch sets a cookie, and a prefetch of it would switch
            the language without a click. A full navigation also leaves no page of the other
            language in the client router's cache. */}
        <a href={`?lang=${lang === 'es' ? 'en' : 'es'}`} lang={lang === 'es' ? 'en' : 'es-CO'} hrefLang={lang === 'es' ? 'en' : 'es-CO'}>
          {t.language}
        </a>
        {nav}
      </header>
      <main id="main" className="page">
        {children}
      </main>
    </div>
  );
}
