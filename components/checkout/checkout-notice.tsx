import type { ReactNode } from 'react';
import { checkoutCopy, LANG_TAG, type Lang } from '@/lib/checkout/i18n';
import { type CheckoutState, CheckoutShell, StatusMessage } from './checkout-shell';

// A checkout with nothing to pay: expired, already paid, unavailable, or unknown (the 404, which
// has no checkout state). Server-rendered, no form and no client code of its own.

export function CheckoutNotice(props: { state?: CheckoutState; lang: Lang; title: string; text: string; children?: ReactNode }) {
  const copy = checkoutCopy(props.lang);
  const tone = props.state === 'paid' ? 'success' : 'warning';
  return (
    <CheckoutShell state={props.state} lang={LANG_TAG[props.lang]} copy={copy}>
      {props.children}
      <StatusMessage tone={tone} title={props.title} heading={!props.children}>
        <p>{props.text}</p>
      </StatusMessage>
    </CheckoutShell>
  );
}
