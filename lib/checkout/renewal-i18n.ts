// The hosted checkout's words for a renewal link (docs/billing.md#renewal-links): what period it
// pays and until when, and, when it no longer takes a payment, why and what to do. Spanish first,
// the customer addressed as "usted", like the rest of the page (lib/checkout/i18n.ts).

import { fill, formatExpiry, type FormCopy, type Lang } from './i18n';
import { formatLongDate } from '@/lib/i18n/format';

const es = {
  note: 'Renovación del periodo que vence el {due}. Puede pagarla hasta el {expires}.',
  retry: 'Puede intentarlo de nuevo o pagar con otro medio hasta el {expires}.',
  paid: { title: 'Esta renovación ya fue pagada', text: 'El periodo de {plan} que vencía el {due} ya está pagado. No tiene que pagar de nuevo.' },
  expired: {
    title: 'Su suscripción fue cancelada por falta de pago',
    text: 'El plazo para pagar la renovación de {plan} terminó el {expires} sin pago, así que la suscripción con {merchant} se canceló y no se le cobró nada. Si quiere seguir, pídale a {merchant} un link de suscripción nuevo.',
  },
  cancelled: {
    title: 'Esta renovación ya no se puede pagar',
    text: 'La suscripción a {plan} fue cancelada, así que este link no cobra nada. Si tiene dudas, comuníquese con {merchant}.',
  },
  superseded: {
    title: 'Este link de renovación ya no es necesario',
    text: 'El periodo que cobraba ya no está pendiente: {merchant} pausó o cambió la suscripción a {plan}. No tiene que pagar con este link; si le llega uno nuevo, use ese.',
  },
  late: {
    title: 'Su pago llegó cuando la suscripción ya no estaba activa',
    voided:
      'La suscripción a {plan} se canceló o se pausó mientras se procesaba su pago, así que ese pago no renueva nada. Anulamos el cobro: no se le cobrará. Le enviamos los detalles por correo.',
    refund:
      'La suscripción a {plan} se canceló o se pausó mientras se procesaba su pago, así que ese pago no renueva nada. Este medio de pago no se puede anular automáticamente: pídale a {merchant} la devolución. Le enviamos por correo la referencia del pago.',
  },
};

const en: typeof es = {
  note: 'Renewal of the period due on {due}. You can pay it until {expires}.',
  retry: 'You can try again or pay another way until {expires}.',
  paid: { title: 'This renewal has already been paid', text: 'The period of {plan} due on {due} is paid. You do not need to pay again.' },
  expired: {
    title: 'Your subscription was cancelled for non-payment',
    text: 'The time to pay the renewal of {plan} ended on {expires} without a payment, so the subscription with {merchant} was cancelled and nothing was charged. To continue, ask {merchant} for a new subscription link.',
  },
  cancelled: {
    title: 'This renewal can no longer be paid',
    text: 'The subscription to {plan} was cancelled, so this link charges nothing. If in doubt, contact {merchant}.',
  },
  superseded: {
    title: 'This renewal link is no longer needed',
    text: 'The period it collected is no longer due: {merchant} paused or changed the subscription to {plan}. You do not need to pay with this link; if you get a new one, use that.',
  },
  late: {
    title: 'Your payment arrived when the subscription was no longer active',
    voided:
      'The subscription to {plan} was cancelled or paused while your payment was being processed, so the payment renews nothing. We voided the charge: you will not be charged. We sent you the details by e-mail.',
    refund:
      'The subscription to {plan} was cancelled or paused while your payment was being processed, so the payment renews nothing. This payment method cannot be voided automatically: ask {merchant} for a refund. We e-mailed you the payment reference.',
  },
};

const dateOf = (lang: Lang, epochMs: number) => formatLongDate(epochMs, lang);

/** The renewal link's words with this link's values in. */
export function renewalCopy(lang: Lang, facts: { planName: string; merchantName: string; period: number; expiresAt: number }) {
  const table = lang === 'en' ? en : es;
  const values = { plan: facts.planName, merchant: facts.merchantName, due: dateOf(lang, facts.period), expires: formatExpiry(facts.expiresAt, lang) };
  const both = (pair: { title: string; text: string }) => ({ title: pair.title, text: fill(pair.text, values) });
  return {
    note: fill(table.note, values),
    paid: both(table.paid),
    expired: both(table.expired),
    cancelled: both(table.cancelled),
    superseded: both(table.superseded),
    late: { title: table.late.title, voided: fill(table.late.voided, values), refund: fill(table.late.refund, values) },
    retry: fill(table.retry, values),
  };
}

/** A renewal link's form: how long a declined customer may still try; what becomes of a late payment. */
export function withRenewalRetry(copy: FormCopy, { retry, late }: { retry: string; late: NonNullable<FormCopy['status']['late']> }): FormCopy {
  const declined = copy.status.declined;
  const add = (text: string) => `${text} ${retry}`;
  return {
    ...copy,
    status: {
      ...copy.status,
      late,
      declined: { ...declined, insufficient_funds: add(declined.insufficient_funds), card_not_supported: add(declined.card_not_supported), other: add(declined.other) },
      error: { ...copy.status.error, text: add(copy.status.error.text) },
    },
  };
}
