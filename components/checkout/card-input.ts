// How the card fields take what is typed: digits only where only digits belong, the number in
// the groups printed on the card, the expiry's slash added after the month.
import { brandOf, type CardField } from '@/lib/processors/card';

/** Groups of four (American Express 4-6-5), as printed on the card. */
function groupCardNumber(digits: string): string {
  const groups = brandOf(digits) === 'amex' ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const parts: string[] = [];
  let at = 0;
  for (const size of groups) {
    if (at >= digits.length) break;
    parts.push(digits.slice(at, at + size));
    at += size;
  }
  return parts.join(' ');
}

/** MM/YY as it is typed: the slash appears after the month; a typed slash keeps a one-digit month. */
function shapeExpiry(value: string, previous: string): string {
  const digits = (s: string) => s.replace(/\D/g, '');
  const slash = value.indexOf('/');
  if (slash >= 0) return `${digits(value.slice(0, slash)).slice(0, 2)}/${digits(value.slice(slash + 1)).slice(0, 4)}`;
  const d = digits(value).slice(0, 4);
  if (d.length > 2) return `${d.slice(0, 2)}/${d.slice(2)}`;
  return d.length === 2 && value.length > previous.length ? `${d}/` : d;
}

/** What a card field holds after the customer typed or pasted into it. */
export function shapeCardInput(field: CardField, input: { value: string; selectionStart: number | null }, previous: string): string {
  const { value, selectionStart } = input;
  switch (field) {
    case 'cardNumber': {
      const digits = value.replace(/\D/g, '').slice(0, 19);
      // Regrouping moves the caret to the end: only do it while typing at the end.
      return selectionStart === value.length ? groupCardNumber(digits) : value.replace(/[^\d ]/g, '');
    }
    case 'cardExpiry':
      return shapeExpiry(value, previous);
    case 'cardCvc':
      return value.replace(/\D/g, '').slice(0, 4);
    default:
      return value;
  }
}
