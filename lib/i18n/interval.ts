import { type BillingInterval, isMonthly } from '@/lib/calendar/interval';
import type { Lang } from './locale';

// How often a plan is charged, in the customer's words (docs/billing.md#intervals): the checkout,
// the manage page, the e-mails and the portal say it the same way. No Node-only code.

const WORDS: Record<Lang, Record<BillingInterval['unit'], [one: string, many: string]>> = {
  es: { week: ['cada semana', 'cada {n} semanas'], month: ['cada mes', 'cada {n} meses'], year: ['cada año', 'cada {n} años'] },
  en: { week: ['every week', 'every {n} weeks'], month: ['every month', 'every {n} months'], year: ['every year', 'every {n} years'] },
};

/** "cada 3 meses", "every week": a monthly plan when no interval is known. */
export function everyInterval(interval: BillingInterval | null | undefined, lang: Lang): string {
  const { unit, count } = interval ?? { unit: 'month', count: 1 };
  const [one, many] = WORDS[lang][unit];
  return count === 1 ? one : many.replace('{n}', String(count));
}

const TRIAL: Record<Lang, [one: string, many: string]> = {
  es: ['Gratis por 1 día, luego {amount} {every}', 'Gratis por {days} días, luego {amount} {every}'],
  en: ['Free for 1 day, then {amount} {every}', 'Free for {days} days, then {amount} {every}'],
};

/** A free trial's offer ("Gratis por 14 días, luego $ 29.900 cada mes"); `amount` is formatted. */
export function trialOffer(days: number, amount: string, interval: BillingInterval | null | undefined, lang: Lang): string {
  const [one, many] = TRIAL[lang];
  return (days === 1 ? one : many).replace('{days}', String(days)).replace('{amount}', amount).replace('{every}', everyInterval(interval, lang));
}

/** The period after an amount: `monthly` (the page's own "al mes") for a monthly plan, else "cada 3 meses". */
export function perInterval(interval: BillingInterval | null | undefined, lang: Lang, monthly: string): string {
  return !interval || isMonthly(interval) ? monthly : everyInterval(interval, lang);
}
