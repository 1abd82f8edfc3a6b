// GET /pay/<token>: the hosted checkout (docs/checkout.md#hosted-page). The server decides what the link allows
// (404, expired, already paid, unavailable, or payable) and only a payable link gets the form.
// With `?embed=1` it is the widget's iframe (docs/checkout.md#embedding) and reports to the merchant's page,
// when the origin the widget names is ours or on the merchant's allowedDomains.
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { CheckoutForm, type CheckoutFormProps } from '@/components/checkout/checkout-form';
import { type BuyerFormProps } from '@/components/checkout/buyer-form';
import { type PromotionForm } from '@/components/checkout/checkout-discount';
import { CheckoutNotice } from '@/components/checkout/checkout-notice';
import { CheckoutSummary } from '@/components/checkout/checkout-summary';
import { EmbedBridge } from '@/components/checkout/embed-bridge';
import { getDb } from '@/db/client';
import { ApiError } from '@/lib/api/errors';
import { buyerFormAction } from '@/lib/checkout/buyer-form';
import { cardFormAction, type FormReturn, formReturnOf } from '@/lib/checkout/card-form';
import { buyerOutcomeOf } from '@/lib/invoices/buyer';
import { embedTargetOrigin } from '@/lib/checkout/embed';
import { checkoutCopy, fill, type FormCopy, formCopy, formatCop, formatExpiry, type Lang, LANG_TAG } from '@/lib/checkout/i18n';
import { methodsCopy } from '@/lib/checkout/methods-i18n';
import { checkoutProcessorConfig } from '@/lib/checkout/processor-config';
import { promotionFormAction, promotionOutcomeOf } from '@/lib/checkout/promotion-form';
import { renewalCopy, withRenewalRetry } from '@/lib/checkout/renewal-i18n';
import { type CheckoutPageSession, loadCheckoutPage } from '@/lib/checkout/session';
import { env } from '@/lib/env';
import { isId } from '@/lib/ids';
import { EMBED_ORIGIN_PARAM, EMBED_PARAM } from '@/lib/widget/protocol';
import { requestLang } from './lang';
import { firstParam } from '@/lib/search-params';

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


export default async function CheckoutPage({ params, searchParams }: PageProps) {
  const [{ token }, query] = await Promise.all([params, searchParams]);
  const lang = await requestLang(query.lang);
  const { session, expired, subscriptionPlanId, pendingPaymentId, late, merchantActive, buyer } = await pageOf(token);
  const target =
    firstParam(query[EMBED_PARAM]) === '1' ? embedTargetOrigin(firstParam(query[EMBED_ORIGIN_PARAM]), session.allowedDomains, env().APP_URL) : null;
  const nonce = (await headers()).get('x-nonce');
  const resume = firstParam(query.payment);
  // The payer back from the bank names its payment; a reopened page follows the one still PENDING.
  const resumePayment = (resume && isId('txn', resume) ? resume : undefined) ?? pendingPaymentId ?? undefined;
  const form = {
    action: cardFormAction(token, query),
    returned: formReturnOf(query),
    promotion: { action: promotionFormAction(token, query), outcome: promotionOutcomeOf(query.promotion) },
    buyer: buyer ? { lang, action: buyerFormAction(token, query), current: buyer.current, outcome: buyerOutcomeOf(query), context: 'checkout' as const } : null,
  };
  const content = merchantActive ? await checkoutContent(token, lang, session, expired, form, resumePayment, late) : suspendedNotice(lang, session);
  if (!target || !nonce) return content;
  return (
    <>
      {content}
      <EmbedBridge nonce={nonce} target={target} subscriptionPlanId={subscriptionPlanId} />
    </>
  );
}

/** What the form shows when a post without JavaScript came back to it (lib/checkout/card-form.ts). */
function initialOf(returned: FormReturn | null, copy: FormCopy): CheckoutFormProps['initial'] {
  if (!returned) return undefined;
  const s = copy.status;
  switch (returned.problem) {
    case 'card':
      return { errors: Object.fromEntries(returned.fields.map((f) => [f, copy.serverProblem[f]])) };
    case 'rate_limited':
      return { outcome: { tone: 'warning', title: s.rateLimited.title, text: fill(s.rateLimited.text, { minutes: 1 }) } };
    case 'in_progress':
      return { outcome: { tone: 'warning', ...s.inProgress } };
    case 'javascript_required':
      return { outcome: { tone: 'warning', ...s.javascriptRequired } };
    case 'declined':
      // A free trial's method refused before anything was saved (nothing charged either).
      return { outcome: { tone: 'danger', title: s.declined.title, text: s.declined.other } };
  }
}

/**
 * A renewal link (docs/billing.md#renewal-links) that takes no payment, said plainly: paid, expired
 * (the plan was cancelled for non-payment), cancelled or superseded, or closed with a late payment
 * (docs/billing.md#late-payments: voided, or to be refunded). Null while it is payable, or while the
 * payer back from the bank follows a payment.
 */
function renewalNotice(lang: Lang, session: CheckoutPageSession, expired: boolean, resumePayment?: string, late?: 'APPROVED' | 'VOIDED' | null): ReactNode {
  const renewal = session.renewal!;
  const words = renewalCopy(lang, { ...session, period: renewal.period, expiresAt: session.expiresAt });
  const notice = (state: 'paid' | 'expired' | 'unavailable', { title, text }: { title: string; text: string }) => (
    <CheckoutNotice state={state} lang={lang} title={title} text={text}>
      <CheckoutSummary session={session} lang={lang} showExpiry={false} />
    </CheckoutNotice>
  );
  if (late) return notice('unavailable', { title: words.late.title, text: late === 'VOIDED' ? words.late.voided : words.late.refund });
  if (resumePayment) return null;
  if (renewal.status === 'PAID') return notice('paid', words.paid);
  if (expired) return notice('expired', words.expired);
  if (renewal.status === 'CANCELLED') return notice('unavailable', words.cancelled);
  if (renewal.status === 'SUPERSEDED') return notice('unavailable', words.superseded);
  return null;
}

/** A suspended merchant's link, a plan's or a renewal link's, takes no payment (docs/operations.md#suspending-a-merchant). */
function suspendedNotice(lang: Lang, session: CheckoutPageSession): ReactNode {
  const copy = checkoutCopy(lang);
  return (
    <CheckoutNotice state="unavailable" lang={lang} title={copy.unavailable.title} text={fill(copy.unavailable.SUSPENDED, { merchant: session.merchantName })}>
      <CheckoutSummary session={session} lang={lang} showExpiry={false} />
    </CheckoutNotice>
  );
}

async function checkoutContent(
  token: string,
  lang: Lang,
  session: CheckoutPageSession,
  expired: boolean,
  form: { action: string; returned: FormReturn | null; promotion: PromotionForm; buyer: BuyerFormProps | null },
  resumePayment?: string,
  late?: 'APPROVED' | 'VOIDED' | null,
): Promise<ReactNode> {
  const copy = checkoutCopy(lang);
  const renewal = session.renewal ? renewalCopy(lang, { ...session, period: session.renewal.period, expiresAt: session.expiresAt }) : null;
  if (renewal) {
    const notice = renewalNotice(lang, session, expired, resumePayment, late);
    if (notice) return notice;
  }
  // A payment under way outlives the link's expiry: the page follows it to its outcome.
  if (expired && !resumePayment) {
    return <CheckoutNotice state="expired" lang={lang} title={copy.expired.title} text={copy.expired.text} />;
  }

  const values = { plan: session.planName, merchant: session.merchantName };
  // Back from the bank, the payment may have settled already: the form shows its outcome. (An
  // ACTIVE plan's renewal link is payable: renewalNotice said what else it can be.)
  if (session.status === 'ACTIVE' && session.trial?.endsAt && !renewal) {
    // The first charge, with a coupon's discount taken off (docs/billing.md#coupons).
    const started = fill(copy.trial.started.text, { amount: formatCop(session.discount?.amountDue ?? session.amount), date: formatExpiry(session.trial.endsAt, lang) });
    return (
      <CheckoutNotice state="paid" lang={lang} title={copy.trial.started.title} text={started}>
        <CheckoutSummary session={session} lang={lang} showExpiry={false} />
      </CheckoutNotice>
    );
  }
  if ((session.status === 'ACTIVE' || session.status === 'COMPLETED') && !resumePayment && !renewal) {
    return (
      <CheckoutNotice state="paid" lang={lang} title={copy.paid.title} text={fill(copy.paid[session.modality], values)}>
        <CheckoutSummary session={session} lang={lang} showExpiry={false} />
      </CheckoutNotice>
    );
  }
  // A renewal link's payer back from the bank follows the payment, made before the plan stopped, to
  // its outcome: a late payment's words say what happens to the money (docs/billing.md#late-payments).
  if ((session.status === 'PAUSED' || session.status === 'CANCELLED') && !(renewal && resumePayment)) {
    return (
      <CheckoutNotice state="unavailable" lang={lang} title={copy.unavailable.title} text={fill(copy.unavailable[session.status], values)}>
        <CheckoutSummary session={session} lang={lang} showExpiry={false} />
      </CheckoutNotice>
    );
  }

  const methods = methodsCopy(lang, session);
  const config = await checkoutProcessorConfig(await getDb(), session.merchantId);
  if (config.kind !== 'ready') {
    const notice = config.kind === 'none' ? methods.noProcessor : methods.processorDown;
    return (
      <CheckoutNotice state={config.kind === 'none' ? 'unavailable' : 'error'} lang={lang} title={notice.title} text={notice.text}>
        <CheckoutSummary session={session} lang={lang} showExpiry={false} />
      </CheckoutNotice>
    );
  }
  const phone = /^\+57(3\d{9})$/.exec(session.customer.phone)?.[1] ?? '';

  const fields = renewal ? withRenewalRetry(formCopy(lang, session), renewal) : formCopy(lang, session);
  return (
    <CheckoutForm
      token={token}
      action={form.action}
      initial={initialOf(form.returned, fields)}
      lang={LANG_TAG[lang]}
      shell={{ secure: copy.secure, poweredBy: copy.poweredBy }}
      copy={fields}
      initialHolder={session.customer.firstName ?? ''}
      methodsCopy={methods}
      processor={config.processor}
      // PSE cannot start a free trial: a bank transfer cannot be charged later (docs/billing.md#trials).
      methods={session.trial ? config.methods.filter((m) => m !== 'PSE') : config.methods}
      pseBanks={config.pseBanks}
      initialPhone={phone}
      subscription={session.modality === 'SUBSCRIPTION'}
      resumePayment={resumePayment}
    >
      <CheckoutSummary session={session} lang={lang} showExpiry note={renewal?.note} promotion={resumePayment ? undefined : form.promotion} buyer={resumePayment ? null : form.buyer} />
    </CheckoutForm>
  );
}
