import type { ACCOUNT_EMAIL_KINDS, EmailKind, MERCHANT_EMAIL_KINDS } from '@/db/schema';

/**
 * The e-mails to customers; `webhook_disabled` goes to the merchant and is written by
 * lib/webhooks/disabled-notice.ts, the account e-mails by ./account.ts.
 */
export type CustomerEmailKind = Exclude<EmailKind, (typeof MERCHANT_EMAIL_KINDS)[number] | (typeof ACCOUNT_EMAIL_KINDS)[number]>;
import type { BillingInterval } from '@/lib/calendar/interval';
import { fill, formatCop, formatLongDate } from '@/lib/i18n/format';
import { perInterval } from '@/lib/i18n/interval';
import { LANG_TAG, type Lang } from '@/lib/i18n/locale';
import type { CancelReason } from '@/lib/cancel-reason';

// The customer's e-mails (docs/customers.md#e-mails), each written once per language and rendered
// as text and simple HTML, in the customer's language.

export interface EmailFacts {
  merchantName: string;
  customerName: string | null;
  description: string;
  amount: number;
  /** How often the plan is charged (null: SINGLE, or monthly). */
  interval?: BillingInterval | null;
  chargeDate?: Date;
  /** The receipt's and notice's processor reference, when known. */
  reference?: string | null;
  /** Renewal failure: when it is tried again. Receipt: the next charge. */
  nextDate?: Date | null;
  /** Cancellation: why, as a code rendered in the customer's language (a merchant's own text as written). */
  reason?: CancelReason;
  manageUrl: string;
  /** renewal_due: the renewal link (docs/billing.md#renewal-links) and which e-mail of its period this is. */
  renewal?: RenewalFacts;
  /** price_change: the amount before (`amount` is the new one), and from when the new one is charged. */
  change?: PriceChangeFacts;
  /** late_payment: whether the charge is voided (a card) or the merchant must refund it (PSE, Nequi). */
  voided?: boolean;
  /** trial_started, trial_ending: when the free trial ends and `amount` is first charged (docs/billing.md#trials). */
  trial?: TrialFacts;
}

export interface TrialFacts {
  endsAt: Date;
  /** Whether a notice 3 days before the end will follow (a trial of more than 3 days). */
  noticeFollows: boolean;
  /** With a coupon that ends (docs/billing.md#coupons): the list price charged once it is used up; `amount` is the first charge, discounted. */
  later?: number;
  /** With a coupon that never ends: the list price it comes off; `amount` is every charge. */
  listAmount?: number;
}

export interface PriceChangeFacts {
  previousAmount: number;
  /** The due date from which the new amount is charged; null: applied at once, or at the next charge of a paused plan. */
  effectiveAt: Date | null;
  /** Applied at once, the rest of the current period charged apart. */
  now: boolean;
}

/** `issued` reminderDays before the due date, `due` on it, `final` before grace ends, `ladder` after the last retry. */
export type RenewalStage = 'issued' | 'due' | 'final' | 'ladder';

export interface RenewalFacts {
  url: string;
  stage: RenewalStage;
  period: Date;
  expiresAt: Date;
  /** With a coupon's discount (docs/billing.md#coupons): the period's list price; `amount` is what the link charges. */
  listAmount?: number;
}

interface Words {
  subject: string;
  greeting: string;
  lines: string[];
  action: string;
  /** Where the button leads: the manage page unless the e-mail says otherwise. */
  url?: string;
  footer: string;
}

const dateOf = (lang: Lang, date: Date) => formatLongDate(date, lang);

function words(kind: CustomerEmailKind, lang: Lang, f: EmailFacts): Words {
  const v = {
    merchant: f.merchantName,
    description: f.description,
    amount: formatCop(f.amount),
    date: f.chargeDate ? dateOf(lang, f.chargeDate) : '',
    next: f.nextDate ? dateOf(lang, f.nextDate) : '',
    reference: f.reference ?? '',
    reason: f.reason?.code === 'merchant' ? (f.reason.text ?? '') : '',
    attempts: f.reason?.code === 'renewal_failed' ? String(f.reason.attempts) : '',
    per: perInterval(f.interval, lang, lang === 'es' ? 'al mes' : 'a month'),
    due: f.renewal ? dateOf(lang, f.renewal.period) : '',
    expires: f.renewal ? dateOf(lang, f.renewal.expiresAt) : '',
    trialEnd: f.trial ? dateOf(lang, f.trial.endsAt) : '',
    list: formatCop(f.renewal?.listAmount ?? f.trial?.listAmount ?? f.amount),
  };
  const es = lang === 'es';
  const greeting = f.customerName ? fill(es ? 'Hola, {name}:' : 'Hello {name},', { name: f.customerName }) : es ? 'Hola:' : 'Hello,';
  const footer = fill(
    es
      ? 'Recibe este correo porque tiene una suscripción con {merchant}. Pagos procesados por ServicePay.'
      : 'You receive this e-mail because you have a subscription with {merchant}. Payments processed by ServicePay.',
    v,
  );
  return { ...content(kind, lang, f, es, (template: string) => fill(template, v)), greeting, footer };
}

/** What each e-mail says between the greeting and the footer, which every one has. */
function content(kind: CustomerEmailKind, lang: Lang, f: EmailFacts, es: boolean, t: (template: string) => string): Omit<Words, 'greeting' | 'footer'> {
  const action = es ? 'Gestionar mi suscripción' : 'Manage my subscription';
  switch (kind) {
    case 'receipt':
      return {
        subject: t(es ? 'Recibo de su pago a {merchant}' : 'Receipt for your payment to {merchant}'),
        lines: [
          t(es ? 'Recibimos su pago de {amount} por «{description}» el {date}.' : 'We received your payment of {amount} for “{description}” on {date}.'),
          ...(f.reference ? [t(es ? 'Referencia: {reference}' : 'Reference: {reference}')] : []),
          ...(f.nextDate ? [t(es ? 'Su próximo cobro será el {next}.' : 'Your next charge will be on {next}.')] : []),
        ],
        action,
      };
    case 'renewal_failed':
      return {
        subject: t(es ? 'No pudimos cobrar su suscripción a {merchant}' : 'We could not charge your subscription to {merchant}'),
        lines: [
          t(es ? 'El cobro de {amount} por «{description}» del {date} no se pudo hacer.' : 'The charge of {amount} for “{description}” on {date} did not go through.'),
          t(
            es
              ? 'Lo intentaremos de nuevo el {next}. Si su tarjeta cambió o venció, reemplácela antes con el enlace de abajo: el nuevo medio de pago se cobra en ese intento.'
              : 'We will try again on {next}. If your card changed or expired, replace it before then with the link below: the new payment method is charged on that attempt.',
          ),
        ],
        action: es ? 'Actualizar mi medio de pago' : 'Update my payment method',
      };
    case 'cancelled':
      return {
        subject: t(es ? 'Su suscripción a {merchant} fue cancelada' : 'Your subscription to {merchant} was cancelled'),
        lines: [
          t(es ? 'Su suscripción «{description}» ({amount} {per}) fue cancelada. No se harán más cobros.' : 'Your subscription “{description}” ({amount} {per}) was cancelled. No further charges will be made.'),
          ...(f.reason ? [t(reasonLine(f.reason, es))] : []),
        ],
        action: es ? 'Ver mi suscripción' : 'See my subscription',
      };
    case 'renewal_due':
      return renewalWords(f.renewal!, es, t);
    case 'invoice':
      // docs/einvoicing.md#where-it-shows: its receipt went before DIAN validated it.
      return {
        subject: t(es ? 'Factura electrónica de su pago a {merchant}' : 'Electronic invoice for your payment to {merchant}'),
        lines: [t(es ? 'La factura electrónica de su pago de {amount} por «{description}» del {date} ya fue validada por la DIAN.' : 'The electronic invoice for your payment of {amount} for “{description}” on {date} has been validated by DIAN.')],
        action,
      };
    case 'late_payment':
      // docs/billing.md#late-payments: approved after the plan was cancelled or paused.
      return {
        subject: t(es ? 'Su pago a {merchant} llegó cuando la suscripción ya no estaba activa' : 'Your payment to {merchant} arrived when the subscription was no longer active'),
        lines: [
          t(
            es
              ? 'Su pago de {amount} por «{description}» del {date} se aprobó después de que la suscripción se cancelara o se pausara, así que no renueva nada.'
              : 'Your payment of {amount} for “{description}” on {date} was approved after the subscription was cancelled or paused, so it renews nothing.',
          ),
          t(
            f.voided
              ? es
                ? 'Anulamos el cobro: no se le cobrará. Si aun así lo ve en su extracto, escriba a {merchant} con la referencia {reference}.'
                : 'We voided the charge: you will not be charged. If you still see it on your statement, write to {merchant} quoting reference {reference}.'
              : es
                ? 'Este medio de pago no se puede anular automáticamente: pídale a {merchant} la devolución de {amount}, con la referencia {reference}.'
                : 'This payment method cannot be voided automatically: ask {merchant} to refund the {amount}, quoting reference {reference}.',
          ),
        ],
        action: es ? 'Ver mi suscripción' : 'See my subscription',
      };
    case 'trial_started':
    case 'trial_ending':
      return trialWords(kind, f.trial!, es, t);
    case 'price_change': {
      const c = f.change!;
      const values = { previous: formatCop(c.previousAmount), from: c.effectiveAt ? dateOf(lang, c.effectiveAt) : '' };
      const line = (template: string) => fill(t(template), values);
      return {
        subject: t(es ? 'Cambia el valor de su suscripción a {merchant}' : 'The price of your subscription to {merchant} is changing'),
        lines: [
          line(es ? 'El valor de «{description}» pasa de {previous} a {amount} {per}.' : 'The price of “{description}” goes from {previous} to {amount} {per}.'),
          line(
            c.now
              ? es
                ? 'El nuevo valor rige desde hoy. La diferencia por lo que queda del periodo en curso se cobró aparte: le llega su recibo.'
                : 'The new price applies from today. The difference for the rest of the current period was charged separately: its receipt follows.'
              : c.effectiveAt
                ? es
                  ? 'Se cobrará desde el {from}. Hasta entonces no cambia nada.'
                  : 'It is charged from {from}. Nothing changes until then.'
                : es
                  ? 'Se cobrará desde su próximo cobro.'
                  : 'It is charged from your next charge.',
          ),
          t(es ? 'Si no está de acuerdo, puede cancelar su suscripción con el enlace de abajo.' : 'If you do not agree, you can cancel your subscription with the link below.'),
        ],
        action: es ? 'Ver mi suscripción' : 'See my subscription',
      };
    }
  }
}

/** A free trial's e-mails (docs/billing.md#trials): nothing charged yet, what is charged and when, and how to stop it. */
function trialWords(kind: 'trial_started' | 'trial_ending', trial: TrialFacts, es: boolean, t: (template: string) => string): Omit<Words, 'greeting' | 'footer'> {
  const started = kind === 'trial_started';
  const later = trial.later === undefined ? null : formatCop(trial.later);
  const charge = fill(
    t(
      later
        ? es
          ? `${started ? 'El {trialEnd}' : 'Ese día'} se cobrarán {amount} a su medio de pago guardado, con su descuento; cuando el descuento termine, {later} {per}.`
          : `${started ? 'On {trialEnd},' : 'On that day'} {amount} will be charged to your saved payment method, with your discount; once the discount ends, {later} {per}.`
        : trial.listAmount !== undefined
          ? es
            ? `${started ? 'El {trialEnd}' : 'Ese día'} se cobrarán {amount} a su medio de pago guardado, y luego {amount} {per}, con su descuento sobre el precio de lista de {list}.`
            : `${started ? 'On {trialEnd},' : 'On that day'} {amount} will be charged to your saved payment method, then {amount} {per}, with your discount off the list price of {list}.`
          : es
            ? `${started ? 'El {trialEnd}' : 'Ese día'} se cobrarán {amount} a su medio de pago guardado, y luego {amount} {per}.`
            : `${started ? 'On {trialEnd},' : 'On that day'} {amount} will be charged to your saved payment method, then {amount} {per}.`,
    ),
    { later: later ?? '' },
  );
  const cancel = t(
    es
      ? 'Si no desea continuar, cancele antes de esa fecha con el enlace de abajo: no se le cobrará nada.'
      : 'If you do not wish to continue, cancel before that date with the link below: you will not be charged anything.',
  );
  const notice = trial.noticeFollows ? [t(es ? 'Le escribiremos 3 días antes de ese cobro.' : 'We will write to you 3 days before that charge.')] : [];
  if (started) {
    return {
      subject: t(es ? 'Comenzó su prueba gratis con {merchant}' : 'Your free trial with {merchant} has started'),
      lines: [
        t(es ? 'Su prueba gratis de «{description}» va hasta el {trialEnd}. Hoy no se le cobró nada.' : 'Your free trial of “{description}” runs until {trialEnd}. Nothing was charged today.'),
        charge,
        ...notice,
        cancel,
      ],
      action: es ? 'Ver mi suscripción' : 'See my subscription',
    };
  }
  return {
    subject: t(es ? 'Su prueba gratis con {merchant} termina el {trialEnd}' : 'Your free trial with {merchant} ends on {trialEnd}'),
    lines: [t(es ? 'Su prueba gratis de «{description}» termina el {trialEnd}.' : 'Your free trial of “{description}” ends on {trialEnd}.'), charge, cancel],
    action: es ? 'Gestionar mi suscripción' : 'Manage my subscription',
  };
}

/** Why the plan was cancelled, in the customer's words; a merchant's own reason is quoted as written. */
function reasonLine(reason: CancelReason, es: boolean): string {
  switch (reason.code) {
    case 'customer':
      return es ? 'Usted la canceló desde la página de su suscripción.' : 'You cancelled it from your subscription page.';
    case 'merchant':
      if (reason.text) return es ? 'Motivo que indicó {merchant}: {reason}' : 'Reason given by {merchant}: {reason}';
      return es ? '{merchant} la canceló.' : '{merchant} cancelled it.';
    case 'renewal_failed':
      return es
        ? 'La cancelamos porque no pudimos hacer el cobro después de {attempts} intentos seguidos.'
        : 'We cancelled it because the charge did not go through after {attempts} attempts in a row.';
    case 'unpaid':
      return es
        ? 'La cancelamos porque la renovación no se pagó dentro del plazo.'
        : 'We cancelled it because the renewal was not paid in time.';
    case 'period_end':
      return es ? 'Terminó al final del periodo pagado, como se pidió.' : 'It ended at the end of the paid period, as asked.';
  }
}

/** The renewal link's e-mails: what is due, by when, and that any method the merchant takes will do. */
function renewalWords(r: RenewalFacts, es: boolean, t: (template: string) => string): Omit<Words, 'greeting' | 'footer'> {
  const subjects: Record<RenewalStage, string> = es
    ? {
        issued: 'Renueve su suscripción a {merchant}',
        due: 'Hoy vence su suscripción a {merchant}',
        final: 'Quedan 2 días para renovar su suscripción a {merchant}',
        ladder: 'No pudimos cobrar su suscripción a {merchant}: pague con otro medio',
      }
    : {
        issued: 'Renew your subscription to {merchant}',
        due: 'Your subscription to {merchant} is due today',
        final: '2 days left to renew your subscription to {merchant}',
        ladder: 'We could not charge your subscription to {merchant}: pay another way',
      };
  const opening: Record<RenewalStage, string> = es
    ? {
        issued: 'El próximo periodo de «{description}» ({amount}) vence el {due}.',
        due: 'El periodo de «{description}» ({amount}) vence hoy, {due}.',
        final: 'El periodo de «{description}» ({amount}) sigue sin pagar.',
        ladder: 'Intentamos cobrar {amount} por «{description}» varias veces y su medio de pago no lo permitió.',
      }
    : {
        issued: 'The next period of “{description}” ({amount}) is due on {due}.',
        due: 'The period of “{description}” ({amount}) is due today, {due}.',
        final: 'The period of “{description}” ({amount}) is still unpaid.',
        ladder: 'We tried to charge {amount} for “{description}” several times and your payment method did not allow it.',
      };
  return {
    subject: t(subjects[r.stage]),
    lines: [
      t(opening[r.stage]),
      ...(r.listAmount !== undefined ? [t(es ? 'Precio de lista: {list}; con su descuento paga {amount}.' : 'List price: {list}; with your discount you pay {amount}.')] : []),
      t(
        es
          ? 'Páguelo con el enlace de abajo, con tarjeta, Nequi o PSE, antes del {expires}. Si paga con tarjeta o Nequi, las siguientes renovaciones se cobrarán solas a ese medio.'
          : 'Pay it with the link below, by card, Nequi or PSE, before {expires}. If you pay by card or Nequi, the following renewals are charged to it automatically.',
      ),
      t(es ? 'Si no se paga para entonces, la suscripción se cancelará.' : 'If it is not paid by then, the subscription will be cancelled.'),
    ],
    action: es ? 'Pagar la renovación' : 'Pay the renewal',
    url: r.url,
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Above the link's address, for a mail client that does not show the button. */
const LINK_HINT: Record<Lang, string> = { es: 'Si el botón no abre, use este enlace:', en: 'If the button does not open, use this link:' };

function htmlPart(w: Words, url: string, lang: Lang): string {
  const p = (text: string) => `<p style="margin:0 0 12px 0;font-size:16px;line-height:24px;color:#14213d">${escapeHtml(text)}</p>`;
  return [
    p(w.greeting),
    ...w.lines.map(p),
    // The button carries the link; the address below it may break anywhere, so a long token never widens the e-mail.
    `<p style="margin:20px 0"><a href="${escapeHtml(url)}" style="display:inline-block;max-width:100%;box-sizing:border-box;background:#0b6e4f;color:#ffffff;font-size:16px;line-height:22px;font-weight:bold;text-decoration:none;padding:12px 20px;border-radius:6px">${escapeHtml(w.action)}</a></p>`,
    `<p style="margin:0 0 12px 0;font-size:13px;line-height:20px;color:#4a5568">${escapeHtml(LINK_HINT[lang])}<br><a href="${escapeHtml(url)}" style="color:#0b6e4f;word-break:break-all;overflow-wrap:anywhere">${escapeHtml(url)}</a></p>`,
    `<p style="margin:0 0 12px 0;font-size:13px;line-height:20px;color:#4a5568">${escapeHtml(w.footer)}</p>`,
  ].join('\n');
}

function textPart(w: Words, url: string): string {
  return [w.greeting, '', ...w.lines.flatMap((l) => [l, '']), `${w.action}: ${url}`, '', w.footer].join('\n');
}

interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/** The e-mail of `kind` in the customer's language (Spanish for anything but 'en'), as subject, plain text and HTML. */
export function renderEmail(kind: CustomerEmailKind, facts: EmailFacts, customerLang?: string | null): RenderedEmail {
  const lang: Lang = customerLang === 'en' ? 'en' : 'es';
  const w = words(kind, lang, facts);
  return {
    subject: w.subject,
    text: textPart(w, w.url ?? facts.manageUrl),
    html: [
      '<!doctype html>',
      `<html lang="${LANG_TAG[lang]}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(w.subject)}</title></head>`,
      '<body style="margin:0;padding:0;background:#f7f8fa">',
      '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f7f8fa"><tr><td align="center" style="padding:24px 12px">',
      // Fixed layout and wrapping words: a long name, description or reference wraps instead of widening the column.
      '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;table-layout:fixed;background:#ffffff;border:1px solid #d9dee7;border-radius:8px"><tr><td style="padding:20px;font-family:Arial,Helvetica,sans-serif;word-wrap:break-word;overflow-wrap:anywhere">',
      `<p style="margin:0 0 16px 0;font-size:14px;color:#4a5568;font-weight:bold">${escapeHtml(facts.merchantName)}</p>`,
      htmlPart(w, w.url ?? facts.manageUrl, lang),
      '</td></tr></table>',
      '</td></tr></table>',
      '</body></html>',
    ].join('\n'),
  };
}

/** The electronic invoice of a receipt's charge, once DIAN validated it (docs/einvoicing.md#where-it-shows). */
export interface ReceiptInvoice {
  number: string;
  cufe: string;
  qrUrl: string;
}

const INVOICE_WORDS: Record<Lang, { title: string; cufe: string; qr: string }> = {
  es: { title: 'Factura electrónica', cufe: 'CUFE', qr: 'Consúltela en la DIAN' },
  en: { title: 'Electronic invoice', cufe: 'CUFE', qr: 'Check it at DIAN' },
};

/**
 * A rendered receipt with its invoice's number, CUFE and DIAN's link, above its button, in the
 * e-mail's own language; the same e-mail when it already carries them.
 */
export function withReceiptInvoice(email: { text: string; html: string }, invoice: ReceiptInvoice): { text: string; html: string } {
  if (email.text.includes(invoice.cufe)) return email;
  const lang: Lang = /<html lang="en"/.test(email.html) ? 'en' : 'es';
  const w = INVOICE_WORDS[lang];
  const action = lang === 'en' ? 'Manage my subscription:' : 'Gestionar mi suscripción:';
  const block = [`${w.title}: ${invoice.number}`, `${w.cufe}: ${invoice.cufe}`, `${w.qr}: ${invoice.qrUrl}`, ''];
  const lines = email.text.split('\n');
  const at = lines.findIndex((line) => line.startsWith(action));
  lines.splice(at < 0 ? lines.length : at, 0, ...block);
  const small = 'margin:0 0 12px 0;font-size:14px;line-height:22px;color:#14213d;word-break:break-all;overflow-wrap:anywhere';
  const html =
    `<p style="${small}"><strong>${escapeHtml(w.title)}: ${escapeHtml(invoice.number)}</strong><br>${escapeHtml(w.cufe)}: ${escapeHtml(invoice.cufe)}<br>` +
    `<a href="${escapeHtml(invoice.qrUrl)}" style="color:#0b6e4f">${escapeHtml(w.qr)}</a></p>`;
  const button = email.html.indexOf('<p style="margin:20px 0">');
  return { text: lines.join('\n'), html: button < 0 ? email.html.replace('</td></tr></table>', `${html}\n</td></tr></table>`) : `${email.html.slice(0, button)}${html}\n${email.html.slice(button)}` };
}
