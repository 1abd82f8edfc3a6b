import type { FormCopy } from '@/lib/checkout/i18n';
import type { MethodsCopy } from '@/lib/checkout/methods-i18n';
import type { PaymentMethodChoice } from '@/lib/checkout/processor-types';
import { type CardField, type CardInput, type CardRules, cardProblems } from '@/lib/processors/card';
import type { Consent } from '@/lib/processors/processor';

// What the checkout form sends per method and checks first (docs/checkout.md). Pure: the form's hook
// calls Wompi and passes the results in; the server checks again (payment-schemas.ts).

export const CARD_FIELDS: readonly CardField[] = ['cardNumber', 'cardExpiry', 'cardCvc', 'cardHolder'];

/** A Colombian mobile number once `phoneDigits` has cleaned it: 10 digits starting with 3. */
export const MOBILE = /^3\d{9}$/;

/** A phone number as typed, without spaces, brackets, dashes or a leading +57. */
export const phoneDigits = (value: string) => value.replace(/[\s()-]/g, '').replace(/^\+?57(?=3\d{9}$)/, '');

export interface PseValues {
  institutionCode: string;
  userType: 'PERSON' | 'COMPANY';
  legalIdType: 'CC' | 'CE' | 'NIT' | 'PP';
  legalId: string;
  fullName: string;
  phoneNumber: string;
}

export type PseField = 'institutionCode' | 'legalId' | 'fullName' | 'phoneNumber';

/** What the payer typed or chose, for every method (only the chosen one is sent). */
export interface PaymentFields {
  method: PaymentMethodChoice;
  card: CardInput;
  nequiPhone: string;
  pse: PseValues;
  accepted: { endUser: boolean; personalData: boolean };
}

export type PaymentProblems = Partial<Record<string, string>>;

/** The chosen method's problems, by field, in the page's language (none: ready to pay). */
export function paymentProblems(
  fields: PaymentFields,
  copy: { form: FormCopy; methods: MethodsCopy },
  options: { rules: CardRules; consentRequired: boolean },
): PaymentProblems {
  const found: PaymentProblems = {};
  const mc = copy.methods;
  if (fields.method === 'CARD') {
    const problems = cardProblems(fields.card, undefined, options.rules);
    for (const f of CARD_FIELDS) if (problems[f]) found[f] = copy.form.problems[f][problems[f]!] ?? copy.form.serverProblem[f];
  } else if (fields.method === 'NEQUI') {
    if (!MOBILE.test(phoneDigits(fields.nequiPhone))) found.phoneNumber = mc.nequi.phoneProblem;
  } else {
    const pse = fields.pse;
    if (!pse.institutionCode) found.institutionCode = mc.pse.problems.institutionCode;
    if (!/^[0-9A-Za-z-]{3,20}$/.test(pse.legalId.trim())) found.legalId = mc.pse.problems.legalId;
    if (!pse.fullName.trim()) found.fullName = mc.pse.problems.fullName;
    if (!MOBILE.test(phoneDigits(pse.phoneNumber))) found.phoneNumber = mc.pse.problems.phoneNumber;
  }
  if (options.consentRequired && !(fields.accepted.endUser && fields.accepted.personalData)) found.consent = mc.consent.required;
  return found;
}

/** A card Wompi tokenized in the browser: its token and what the page may show of it. */
interface TokenizedCard {
  id: string;
  brand: string;
  last_four: string;
}

/** What Wompi gave the browser for this attempt: the consent pair and the card's or Nequi's token. */
export interface BrowserTokens {
  consent?: Consent;
  card?: TokenizedCard;
  nequiToken?: string;
}

type PaymentBody = Record<string, unknown>;

/** The request body for the chosen method; with Wompi only the card's token goes, never its number. */
export function paymentBody(fields: PaymentFields, tokens: BrowserTokens = {}): PaymentBody {
  const consent = tokens.consent ?? {};
  if (fields.method === 'CARD') {
    if (!tokens.card) return { ...fields.card };
    return { method: 'CARD', cardToken: tokens.card.id, cardBrand: tokens.card.brand, cardLast4: tokens.card.last_four, ...consent };
  }
  if (fields.method === 'PSE') return { method: 'PSE', ...fields.pse, phoneNumber: phoneDigits(fields.pse.phoneNumber), ...consent };
  const phoneNumber = phoneDigits(fields.nequiPhone);
  return { method: 'NEQUI', phoneNumber, ...(tokens.nequiToken ? { nequiToken: tokens.nequiToken } : {}), ...consent };
}
