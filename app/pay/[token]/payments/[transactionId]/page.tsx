// GET /pay/<token>/payments/<subscriptionTransactionId>: where the card form posted without
// JavaScript lands (docs/checkout.md): the payment's outcome, and while it is PENDING a page that
// reloads itself until it settles. Embedded (?embed=1), it reports to the widget like the form.
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { CheckoutOutcome } from '@/components/checkout/checkout-outcome';
import { CheckoutSummary } from '@/components/checkout/checkout-summary';
import { EmbedBridge } from '@/components/checkout/embed-bridge';
import { getDb } from '@/db/client';
import { ApiError } from '@/lib/api/errors';
import { keptQuery } from '@/lib/checkout/card-form';
import { embedTargetOrigin } from '@/lib/checkout/embed';
import { checkoutCopy, formCopy } from '@/lib/checkout/i18n';
import { getPayment } from '@/lib/checkout/payments';
import { loadCheckoutPage } from '@/lib/checkout/session';
import { env } from '@/lib/env';
import { getPaymentProcessor } from '@/lib/processors';
import { EMBED_ORIGIN_PARAM, EMBED_PARAM } from '@/lib/widget/protocol';
import { requestLang } from '../../lang';
import { firstParam } from '@/lib/search-params';

interface PageProps {
  params: Promise<{ token: string; transactionId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export async function generateMetadata({ searchParams }: PageProps): Promise<Metadata> {
  const lang = await requestLang((await searchParams).lang);
  return { title: `${checkoutCopy(lang).htmlTitle} · ServicePay`, robots: { index: false, follow: false }, referrer: 'no-referrer' };
}


export default async function PaymentOutcomePage({ params, searchParams }: PageProps) {
  const [{ token, transactionId }, query] = await Promise.all([params, searchParams]);
  const lang = await requestLang(query.lang);
  const db = await getDb();
  let loaded;
  try {
    const payment = await getPayment(db, getPaymentProcessor(), { token, transactionId });
    loaded = { payment, page: await loadCheckoutPage(db, token) };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') notFound();
    throw error;
  }
  const { payment, page } = loaded;
  const content = (
    <CheckoutOutcome payment={payment} lang={lang} copy={formCopy(lang, page.session)} retryHref={`/pay/${token}${keptQuery(query)}`}>
      <CheckoutSummary session={page.session} lang={lang} showExpiry={false} />
    </CheckoutOutcome>
  );
  const target =
    firstParam(query[EMBED_PARAM]) === '1' ? embedTargetOrigin(firstParam(query[EMBED_ORIGIN_PARAM]), page.session.allowedDomains, env().APP_URL) : null;
  const nonce = (await headers()).get('x-nonce');
  if (!target || !nonce) return content;
  return (
    <>
      {content}
      <EmbedBridge nonce={nonce} target={target} subscriptionPlanId={page.subscriptionPlanId} />
    </>
  );
}
