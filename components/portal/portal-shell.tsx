import type { ReactNode } from 'react';
import { LANG_TAG, type Lang } from '@/lib/i18n/locale';
import type { PortalCopy } from '@/lib/portal/i18n';

/**
 * The portal's frame (docs/portal.md#layout): skip link, the test-mode band across the top, a
 * navigation that stays put (a sidebar from 64rem up; on a phone a sticky bar whose menu is a
 * `<details>`, so it opens without JavaScript), and the page. `testMode` is decided by the caller
 * (lib/portal/processor-page.ts, inTestMode).
 */
export function PortalShell({
  lang,
  t,
  nav,
  testMode,
  suspended = false,
  notices = [],
  children,
}: {
  lang: Lang;
  t: PortalCopy;
  nav?: ReactNode;
  testMode: boolean;
  /** A suspended merchant's portal is read-only (docs/operations.md#suspending-a-merchant): said on every page. */
  suspended?: boolean;
  /** What the merchant must act on soon, said on every page (an e-invoicing numbering range running out). */
  notices?: string[];
  children: ReactNode;
}) {
  const other = lang === 'es' ? 'en' : 'es';
  return (
    <div lang={LANG_TAG[lang]} className="portal">
      <a className="skip" href="#main">
        {t.skip}
      </a>
      {testMode && (
        <p className="sandbox-banner" data-testid="test-mode">
          <strong>{t.sandbox.label}</strong> {t.sandbox.text}
        </p>
      )}
      {suspended && (
        <p className="suspended-banner" role="alert" data-testid="suspended">
          <strong>{t.suspended.label}</strong> {t.suspended.text}
        </p>
      )}
      {notices.map((notice) => (
        <p key={notice} className="notice-banner" data-testid="notice">
          {notice}
        </p>
      ))}
      <div className={nav ? 'portal-frame' : 'portal-frame portal-frame-public'}>
        {/* Focusable: on a short desktop window the sidebar scrolls, and a keyboard must reach all of it. */}
        <header className="portal-side" tabIndex={0}>
          <p className="portal-title">
            <span className="portal-logo" aria-hidden="true">
              SP
            </span>
            <span>
              ServicePay <span className="portal-subtitle">{t.title}</span>
            </span>
          </p>
          {nav ? (
            <details className="portal-menu">
              <summary>{t.nav.menu}</summary>
              <div className="portal-menu-body">
                {nav}
                <LanguageLink lang={lang} other={other} label={t.language} />
              </div>
            </details>
          ) : (
            <LanguageLink lang={lang} other={other} label={t.language} />
          )}
        </header>
        <main id="main" className="portal-main">
          {children}
        </main>
      </div>
    </div>
  );
}

/**
 * A plain link, not next/link: the switch sets a cookie, and a prefetch of it would switch the
 * language without a click. A full navigation also leaves no page of the other language in the
 * client router's cache.
 */
function LanguageLink({ lang, other, label }: { lang: Lang; other: Lang; label: string }) {
  return (
    <a className="portal-language" href={`?lang=${other}`} lang={LANG_TAG[other]} hrefLang={LANG_TAG[other]} data-current={lang}>
      {label}
    </a>
  );
}
