import { headers } from 'next/headers';
import { LANG_HEADER, type Lang, resolveLang } from '@/lib/checkout/i18n';

/** The language proxy.ts resolved for this request; the browser's own if the proxy did not run. */
export async function requestLang(query?: string | string[]): Promise<Lang> {
  const all = await headers();
  const resolved = all.get(LANG_HEADER);
  return resolved === 'es' || resolved === 'en' ? resolved : resolveLang(query, all.get('accept-language'));
}
