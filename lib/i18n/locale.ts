// Which language a page speaks (docs/checkout.md#hosted-page): Spanish (es-CO) first, English on
// request. Shared by the hosted checkout, the merchant portal and proxy.ts, which decides once per
// request and tells the page by LANG_HEADER. No Node-only code: it also runs in client components.

import { firstParam } from '@/lib/search-params';

export type Lang = 'es' | 'en';

/** The value of a `lang` attribute (and the Intl locale) for each language. */
export const LANG_TAG: Record<Lang, string> = { es: 'es-CO', en: 'en' };

/** Request header by which proxy.ts tells a page (and its 404) which language to use. */
export const LANG_HEADER = 'x-checkout-lang';

/** The language a tag names (`en-US` → en), or null for any other. */
export function langOfTag(tag: string): Lang | null {
  const primary = tag.trim().toLowerCase().split('-')[0];
  return primary === 'es' || primary === 'en' ? primary : null;
}

/** `?lang=` when it names es or en, else the browser's first of the two, else Spanish. */
export function resolveLang(query: string | string[] | null | undefined, acceptLanguage: string | null | undefined): Lang {
  const asked = firstParam(query);
  const fromQuery = asked ? langOfTag(asked) : null;
  if (fromQuery) return fromQuery;

  const ranges = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => /^\s*q\s*=\s*(\S*)\s*$/.exec(p)?.[1]).find(Boolean);
      const weight = q === undefined ? 1 : Number(q);
      return { lang: langOfTag(tag), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((r) => r.lang !== null && r.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return ranges[0]?.lang ?? 'es';
}

/** A copy table's two languages, the same keys in each: the table for a language. */
export function bilingual<T>(es: T, en: NoInfer<T>): (lang: Lang) => T {
  return (lang) => (lang === 'en' ? en : es);
}
