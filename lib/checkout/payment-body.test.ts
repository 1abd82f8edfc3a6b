import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import { formCopy } from './i18n';
import { methodsCopy } from './methods-i18n';
import { type PaymentFields, paymentBody, paymentProblems, phoneDigits } from './payment-body';
import { parseCheckoutPayment } from './payment-schemas';

const session = { planName: 'Plan mensual', merchantName: 'Acme', amount: 150000, modality: 'SUBSCRIPTION' as const, interval: { unit: 'month' as const, count: 1 } };
const copy = { form: formCopy('es', session), methods: methodsCopy('es', session) };
const consent = { acceptanceToken: 'acc', personalDataToken: 'pd' };

function fields(patch: Partial<PaymentFields> = {}): PaymentFields {
  return {
    method: 'CARD',
    card: { cardNumber: '4242 4242 4242 4242', cardExpiry: '12/40', cardCvc: '123', cardHolder: 'Ana Gómez' },
    nequiPhone: '+57 300 123 4567',
    pse: { institutionCode: '1022', userType: 'PERSON', legalIdType: 'CC', legalId: '1020304050', fullName: 'Ana Gómez', phoneNumber: '(300) 123-4567' },
    accepted: { endUser: true, personalData: true },
    ...patch,
  };
}

describe('phoneDigits', () => {
  it.each([
    ['+57 300 123 4567', '3001234567'],
    ['57-300-123-4567', '3001234567'],
    ['(300) 123-4567', '3001234567'],
    ['5730012345', '5730012345'],
  ])('%s → %s', (typed, digits) => expect(phoneDigits(typed)).toBe(digits));
});

describe('paymentBody', () => {
  it('sends the sandbox card as typed, which the server takes', () => {
    const body = paymentBody(fields());
    expect(body).toEqual(fields().card);
    expect(parseCheckoutPayment(body).instrument).toMatchObject({ type: 'CARD' });
  });

  it('sends only the token of a card Wompi tokenized, never its number or CVC', () => {
    const body = paymentBody(fields(), { card: { id: 'tok_test_1', brand: 'VISA', last_four: '4242' }, consent });
    expect(body).toEqual({ method: 'CARD', cardToken: 'tok_test_1', cardBrand: 'VISA', cardLast4: '4242', ...consent });
    expect(JSON.stringify(body)).not.toContain('4242 4242');
    expect(parseCheckoutPayment(body)).toEqual({ instrument: { type: 'CARD_TOKEN', token: 'tok_test_1', brand: 'visa', last4: '4242' }, consent });
  });

  it('sends Nequi with the phone cleaned, and its token for a subscription', () => {
    expect(paymentBody(fields({ method: 'NEQUI' }))).toEqual({ method: 'NEQUI', phoneNumber: '3001234567' });
    const body = paymentBody(fields({ method: 'NEQUI' }), { nequiToken: 'nequi_test_1', consent });
    expect(parseCheckoutPayment(body)).toEqual({ instrument: { type: 'NEQUI_TOKEN', token: 'nequi_test_1', phoneNumber: '3001234567' }, consent });
  });

  it('sends PSE with the payer and the bank', () => {
    const body = paymentBody(fields({ method: 'PSE' }), { consent });
    expect(body).toMatchObject({ method: 'PSE', institutionCode: '1022', legalId: '1020304050', phoneNumber: '3001234567', ...consent });
    expect(parseCheckoutPayment(body).instrument).toMatchObject({ type: 'PSE', phoneNumber: '3001234567' });
  });

  it('is refused by the server where the browser would have refused it', () => {
    expect(() => parseCheckoutPayment(paymentBody(fields({ method: 'NEQUI', nequiPhone: '12345' })))).toThrow(ApiError);
  });
});

describe('paymentProblems', () => {
  const sandbox = { rules: {}, consentRequired: false };
  const wompi = { rules: { minHolder: 5 }, consentRequired: true };

  it('finds none in a complete form', () => {
    for (const method of ['CARD', 'NEQUI', 'PSE'] as const) expect(paymentProblems(fields({ method }), copy, wompi)).toEqual({});
  });

  it('names each bad card field in the page language', () => {
    const problems = paymentProblems(fields({ card: { cardNumber: '4242', cardExpiry: '13/40', cardCvc: '', cardHolder: 'Ana' } }), copy, wompi);
    expect(Object.keys(problems)).toEqual(['cardNumber', 'cardExpiry', 'cardCvc', 'cardHolder']);
    expect(paymentProblems(fields({ card: { ...fields().card, cardHolder: 'Ana' } }), copy, sandbox)).toEqual({});
  });

  it('checks only the chosen method', () => {
    const bad = fields({ card: { cardNumber: '', cardExpiry: '', cardCvc: '', cardHolder: '' }, nequiPhone: '123' });
    expect(paymentProblems({ ...bad, method: 'PSE' }, copy, sandbox)).toEqual({});
    expect(paymentProblems({ ...bad, method: 'NEQUI' }, copy, sandbox)).toEqual({ phoneNumber: copy.methods.nequi.phoneProblem });
  });

  it('names every missing PSE field', () => {
    const pse = { institutionCode: '', userType: 'PERSON' as const, legalIdType: 'CC' as const, legalId: 'x', fullName: ' ', phoneNumber: '1' };
    expect(Object.keys(paymentProblems(fields({ method: 'PSE', pse }), copy, sandbox))).toEqual(['institutionCode', 'legalId', 'fullName', 'phoneNumber']);
  });

  it('asks Wompi payers to accept both documents', () => {
    const half = fields({ accepted: { endUser: true, personalData: false } });
    expect(paymentProblems(half, copy, wompi)).toEqual({ consent: copy.methods.consent.required });
    expect(paymentProblems(half, copy, sandbox)).toEqual({});
  });
});
