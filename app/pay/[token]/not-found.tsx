// The 404 of /pay/<token>: an unknown or malformed token (docs/checkout.md#hosted-page). Spanish first.
import type { Metadata } from 'next';
import { CheckoutNotice } from '@/components/checkout/checkout-notice';
import { checkoutCopy } from '@/lib/checkout/i18n';
import { requestLang } from './lang';

export const metadata: Metadata = { robots: { index: false, follow: false }, referrer: 'no-referrer' };

export default async function CheckoutNotFound() {
  const lang = await requestLang();
  const copy = checkoutCopy(lang).notFound;
  return <CheckoutNotice lang={lang} title={copy.title} text={copy.text} />;
}
