import { z } from 'zod';
import { parseWith } from '@/lib/api/body';
import type { CheckoutPayment } from '@/lib/checkout/payments';
import type { CardBrand } from '@/lib/processors/card';
import { MOBILE, phoneDigits } from './payment-body';
import { cardPaymentBodySchema } from './schemas';

// The checkout's payment bodies besides the sandbox's card fields (docs/checkout.md): a card
// tokenized in the browser at Wompi, Nequi, PSE. Every one carries the payer's acceptance of
// Wompi's two documents when the merchant charges through Wompi.

const text = (max: number) => z.string({ error: 'must be a string' }).trim().min(1, 'is required').max(max, `must be at most ${max} characters`);
const token = (prefix: string) =>
  z.string({ error: 'must be a string' }).regex(new RegExp(`^${prefix}[A-Za-z0-9_-]{1,120}$`), `must be a ${prefix}… token from Wompi`);

const consentFields = {
  acceptanceToken: z.string({ error: 'must be a string' }).min(1).max(4096).optional(),
  personalDataToken: z.string({ error: 'must be a string' }).min(1).max(4096).optional(),
};

/** A Colombian mobile number: 10 digits starting with 3, with or without +57. */
const phoneNumber = z
  .string({ error: 'must be a string' })
  .transform(phoneDigits)
  .pipe(z.string().regex(MOBILE, 'must be a Colombian mobile number (10 digits starting with 3)'));

const BRANDS = ['visa', 'mastercard', 'amex', 'diners', 'unknown'] as const;

const cardTokenBodySchema = z.object({
  method: z.literal('CARD'),
  cardToken: token('tok_'),
  cardBrand: z
    .string()
    .optional()
    .transform((v): CardBrand => (BRANDS as readonly string[]).includes(String(v).toLowerCase()) ? (String(v).toLowerCase() as CardBrand) : 'unknown'),
  cardLast4: z.string().regex(/^\d{4}$/, 'must be the last four digits'),
  ...consentFields,
});

const nequiBodySchema = z.object({
  method: z.literal('NEQUI'),
  phoneNumber,
  /** A subscription with Wompi: the Nequi token tokenized in the browser (approved in the app now or later, docs/processors.md#nequi-subscriptions). */
  nequiToken: token('nequi_').optional(),
  ...consentFields,
});

const LEGAL_ID_TYPES = ['CC', 'CE', 'NIT', 'PP', 'TI', 'DNI', 'RG', 'OTHER'] as const;

const pseBodySchema = z.object({
  method: z.literal('PSE'),
  userType: z.enum(['PERSON', 'COMPANY'], { error: 'must be PERSON or COMPANY' }),
  legalIdType: z.enum(LEGAL_ID_TYPES, { error: `must be one of ${LEGAL_ID_TYPES.join(', ')}` }),
  legalId: z.string({ error: 'must be a string' }).trim().regex(/^[0-9A-Za-z-]{3,20}$/, 'must be 3 to 20 letters or digits'),
  institutionCode: text(20),
  fullName: text(100),
  phoneNumber,
  ...consentFields,
});

const methodSchema = z.object({ method: z.enum(['CARD', 'NEQUI', 'PSE'], { error: 'must be CARD, NEQUI or PSE' }).optional() });

function consentOf(body: { acceptanceToken?: string; personalDataToken?: string }) {
  return body.acceptanceToken && body.personalDataToken
    ? { consent: { acceptanceToken: body.acceptanceToken, personalDataToken: body.personalDataToken } }
    : {};
}

/** Any payment body the checkout takes, validated by its method (400 naming the bad fields). */
export function parseCheckoutPayment(body: Record<string, unknown>): CheckoutPayment {
  const { method } = parseWith(methodSchema, body.method === undefined ? {} : { method: body.method });
  if ((method === undefined || method === 'CARD') && body.cardToken === undefined) {
    // The sandbox's card form: DECISIONS-era field names kept (cardNumber, cardExpiry, cardCvc, cardHolder).
    return { instrument: { type: 'CARD', card: parseWith(cardPaymentBodySchema, body) } };
  }
  if (method === 'NEQUI') {
    const nequi = parseWith(nequiBodySchema, body);
    const instrument = nequi.nequiToken
      ? { type: 'NEQUI_TOKEN' as const, token: nequi.nequiToken, phoneNumber: nequi.phoneNumber }
      : { type: 'NEQUI' as const, phoneNumber: nequi.phoneNumber };
    return { instrument, ...consentOf(nequi) };
  }
  if (method === 'PSE') {
    const pse = parseWith(pseBodySchema, body);
    const { userType, legalIdType, legalId, institutionCode, fullName, phoneNumber } = pse;
    return { instrument: { type: 'PSE', userType, legalIdType, legalId, institutionCode, fullName, phoneNumber }, ...consentOf(pse) };
  }
  const card = parseWith(cardTokenBodySchema, { ...body, method: 'CARD' });
  return { instrument: { type: 'CARD_TOKEN', token: card.cardToken, brand: card.cardBrand, last4: card.cardLast4 }, ...consentOf(card) };
}
