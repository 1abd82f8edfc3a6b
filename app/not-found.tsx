// Every 404 that is not a page's own `notFound()`: an unmatched path, and the unknown tokens of
// /pay and /manage that proxy.ts sends here so their message is in the HTML (lib/http/not-found.ts).
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import CheckoutNotFound from '@/app/pay/[token]/not-found';
import ManageLinkNotFound from '@/app/manage/[token]/not-found';
import { requestLang } from '@/app/pay/[token]/lang';
import { NOT_FOUND_HEADER, notFoundSectionOf } from '@/lib/http/not-found';
import { LANG_TAG } from '@/lib/i18n/locale';

export const metadata: Metadata = { robots: { index: false, follow: false }, referrer: 'no-referrer' };

const COPY = {
  es: { title: 'No encontramos esta página', text: 'Revise la dirección o vuelva al inicio.', home: 'Ir al inicio' },
  en: { title: 'We could not find this page', text: 'Check the address or go back to the start.', home: 'Go to the start' },
};

export default async function NotFound() {
  const section = notFoundSectionOf((await headers()).get(NOT_FOUND_HEADER));
  if (section === 'pay') return <CheckoutNotFound />;
  if (section === 'manage') return <ManageLinkNotFound />;
  const lang = await requestLang();
  const c = COPY[lang];
  return (
    <main className="page" lang={LANG_TAG[lang]}>
      <h1>{c.title}</h1>
      <p>{c.text}</p>
      <p>
        {/* A plain link: next/link here would load its client code on every 404, the checkout's included. */}
        {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- see above */}
        <a href="/">{c.home}</a>
      </p>
    </main>
  );
}
