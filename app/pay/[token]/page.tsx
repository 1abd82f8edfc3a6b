// GET /pay/<token>: the hosted checkout (DECISIONS 14). The server decides what the link allows
// (404, expired, already paid, unavailable, or payable) and only a payable link gets the form.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { CheckoutForm } from '@/components/checkout/checkout-form';
import { CheckoutNotice } from '@/components/checkout/checkout-notice';
import { CheckoutSummary } from '@/components/checkout/checkout-summary';
import { getDb } from '@/db/client';
import { ApiError } from '@/lib/api/errors';
import { checkoutCopy, fill, formCopy, LANG_TAG } from '@/lib/checkout/i18n';
import { type CheckoutSessionView, loadCheckoutSession } from '@/lib/checkout/session';
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

async function sessionOf(token: string): Promise<CheckoutSessionView | 'expired'> {
  try {
    return await loadCheckoutSession(await getDb(), token);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'session_expired') return 'expired';
    if (error instanceof ApiError && error.code === 'not_found') notFound();
    throw error;
  }
}

export default async function CheckoutPage({ params, searchParams }: PageProps) {
  const [{ token }, query] = await Promise.all([params, searchParams]);
  const lang = await requestLang(query.lang);
  const copy = checkoutCopy(lang);
  const session = await sessionOf(token);

  if (session === 'expired') {
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
