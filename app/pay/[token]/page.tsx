// GET /pay/<token>: the hosted checkout (DECISIONS 14). The server decides what the link allows
// (404, expired, already paid, unavailable, or payable) and only a payable link gets the form.
// With `?embed=1` it is the widget's iframe (DECISIONS 9) and reports to the merchant's page,
// when the origin the widget names is ours or on the merchant's allowedDomains.
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { CheckoutForm } from '@/components/checkout/checkout-form';
import { CheckoutNotice } from '@/components/checkout/checkout-notice';
import { CheckoutSummary } from '@/components/checkout/checkout-summary';
import { EmbedBridge } from '@/components/checkout/embed-bridge';
import { getDb } from '@/db/client';
import { ApiError } from '@/lib/api/errors';
import { embedTargetOrigin } from '@/lib/checkout/embed';
import { checkoutCopy, fill, formCopy, type Lang, LANG_TAG } from '@/lib/checkout/i18n';
import { type CheckoutSessionView, loadCheckoutPage } from '@/lib/checkout/session';
import { env } from '@/lib/env';
import { EMBED_ORIGIN_PARAM, EMBED_PARAM } from '@/lib/widget/protocol';
import { requestLang } from './lang';

interface PageProps {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export async function generateMetadata({ searchParams }: PageProps): Promise<Metadata> {
  const lang = await requestLang((await searchParams).lang);
  return {
    title: `${checkoutCopy(lang).htmlTitle} · ServicePay`,
    // The token in the address is the session's secret: keep it out of indexes and referrers.
    robots: { index: false, follow: false },
    referrer: 'no-referrer',
  };
}

async function pageOf(token: string) {
  try {
    return await loadCheckoutPage(await getDb(), token);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') notFound();
    throw error;
  }
}

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

export default async function CheckoutPage({ params, searchParams }: PageProps) {
  const [{ token }, query] = await Promise.all([params, searchParams]);
  const lang = await requestLang(query.lang);
  const { session, expired, subscriptionPlanId } = await pageOf(token);
  const target =
    first(query[EMBED_PARAM]) === '1' ? embedTargetOrigin(first(query[EMBED_ORIGIN_PARAM]), session.allowedDomains, env().APP_URL) : null;
  const nonce = (await headers()).get('x-nonce');
  const content = checkoutContent(token, lang, session, expired);
  if (!target || !nonce) return content;
  return (
    <>
      {content}
      <EmbedBridge nonce={nonce} target={target} subscriptionPlanId={subscriptionPlanId} />
    </>
  );
}

function checkoutContent(token: string, lang: Lang, session: CheckoutSessionView, expired: boolean): ReactNode {
  const copy = checkoutCopy(lang);
  if (expired) {
    return <CheckoutNotice state="expired" lang={lang} title={copy.expired.title} text={copy.expired.text} />;
  }

  const values = { plan: session.planName, merchant: session.merchantName };
  if (session.status === 'ACTIVE' || session.status === 'COMPLETED') {
    return (
      <CheckoutNotice state="paid" lang={lang} title={copy.paid.title} text={fill(copy.paid[session.modality], values)}>
        <CheckoutSummary session={session} lang={lang} showExpiry={false} />
      </CheckoutNotice>
    );
  }
  if (session.status === 'PAUSED' || session.status === 'CANCELLED') {
    return (
      <CheckoutNotice state="unavailable" lang={lang} title={copy.unavailable.title} text={fill(copy.unavailable[session.status], values)}>
        <CheckoutSummary session={session} lang={lang} showExpiry={false} />
      </CheckoutNotice>
    );
  }

  return (
    <CheckoutForm
      token={token}
      lang={LANG_TAG[lang]}
      shell={{ secure: copy.secure, poweredBy: copy.poweredBy }}
      copy={formCopy(lang, session)}
      initialHolder={session.customer.firstName ?? ''}
    >
      <CheckoutSummary session={session} lang={lang} showExpiry />
    </CheckoutForm>
  );
}
