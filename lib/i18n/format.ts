// Formatting shared by every page that shows money or fills a message (the message tables stay
// with their pages: lib/checkout/i18n.ts, lib/portal/i18n.ts).

import { LANG_TAG, type Lang } from './locale';

const cop = (fractionDigits: number) =>
  new Intl.NumberFormat('es-CO', { style: 'currency', currency: 'COP', minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits });
const WHOLE_PESOS = cop(0);
const WITH_CENTS = cop(2);

/** COP cents as Colombians write pesos (`$ 1.500`, `$ 1.500,50`), in both languages. */
export function formatCop(cents: number): string {
  const whole = Math.round(cents);
  const format = whole % 100 === 0 ? WHOLE_PESOS : WITH_CENTS;
  // ICU puts a no-break space after the sign; pages have always shown a plain one.
  return format.format(whole / 100).replace(/\u00a0/g, ' ');
}

const LONG_DATE = {
  es: new Intl.DateTimeFormat(LANG_TAG.es, { dateStyle: 'long', timeZone: 'America/Bogota' }),
  en: new Intl.DateTimeFormat(LANG_TAG.en, { dateStyle: 'long', timeZone: 'America/Bogota' }),
} satisfies Record<Lang, Intl.DateTimeFormat>;

/** A day as read in Bogotá: `17 de marzo de 2027`, `March 17, 2027`. */
export function formatLongDate(date: Date | number, lang: Lang): string {
  return LONG_DATE[lang].format(date);
}

/** Replaces `{name}` placeholders. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
