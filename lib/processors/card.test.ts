import { describe, expect, it } from 'vitest';
import { brandOf, cardProblems, luhnValid, parseCard, parseExpiry, WOMPI_MIN_HOLDER } from './card';

const NOW = new Date('2026-11-22T12:00:00Z');
const good = { cardNumber: '4242 4242 4242 4242', cardExpiry: '12/28', cardCvc: '123', cardHolder: 'Ana Gómez' };

describe('luhnValid', () => {
  it.each(['4242424242424242', '4111111111111111', '4000000000000119', '4000000000000051', '4000000000000069', '4000000000000341', '5555555555554444', '378282246310005'])(
    'accepts %s',
    (n) => expect(luhnValid(n)).toBe(true),
  );
  it.each(['4242424242424241', '1234567812345678', '42424242', '4242x42424242424', ''])('refuses %j', (n) => expect(luhnValid(n)).toBe(false));
});

describe('parseExpiry', () => {
  it.each([
    ['12/28', { month: 12, year: 2028 }],
    ['1/27', { month: 1, year: 2027 }],
    ['0528', { month: 5, year: 2028 }],
    ['05/2030', { month: 5, year: 2030 }],
  ])('reads %s', (text, expected) => expect(parseExpiry(text)).toEqual(expected));
  it.each(['13/28', '00/28', '12-28', 'ab/cd', '12/2'])('refuses %s', (text) => expect(parseExpiry(text)).toBeNull());
});

describe('cardProblems', () => {
  it('finds none in a good card', () => expect(cardProblems(good, NOW)).toEqual({}));

  it.each(['Ana', 'Al B', ' Ana  '])('with Wompi, refuses the holder %j (under 5 characters) before any call; the sandbox takes it', (cardHolder) => {
    expect(cardProblems({ ...good, cardHolder }, NOW, { minHolder: WOMPI_MIN_HOLDER })).toEqual({ cardHolder: 'short_holder' });
    expect(parseCard({ ...good, cardHolder }, NOW, { minHolder: WOMPI_MIN_HOLDER })).toBeNull();
    expect(cardProblems({ ...good, cardHolder }, NOW)).toEqual({});
  });

  it('with Wompi, takes a holder of 5 characters or more, and sends the number as digits only', () => {
    expect(cardProblems({ ...good, cardHolder: 'Ana G' }, NOW, { minHolder: WOMPI_MIN_HOLDER })).toEqual({});
    expect(parseCard(good, NOW, { minHolder: WOMPI_MIN_HOLDER })?.number).toBe('4242424242424242');
  });

  it.each([
    [{ cardNumber: '4242 4242 4242 4241' }, { cardNumber: 'invalid_number' }],
    [{ cardNumber: '' }, { cardNumber: 'required' }],
    [{ cardExpiry: '10/26' }, { cardExpiry: 'expired' }],
    [{ cardExpiry: '11/26' }, {}],
    [{ cardExpiry: '13/27' }, { cardExpiry: 'invalid_expiry' }],
    [{ cardExpiry: '12/99' }, { cardExpiry: 'invalid_expiry' }],
    [{ cardCvc: '12' }, { cardCvc: 'invalid_cvc' }],
    [{ cardCvc: '1234' }, { cardCvc: 'invalid_cvc' }],
    [{ cardCvc: 'abc' }, { cardCvc: 'invalid_cvc' }],
    [{ cardHolder: '   ' }, { cardHolder: 'required' }],
    [{ cardHolder: 'Ana 123' }, { cardHolder: 'invalid_holder' }],
  ])('%j → %j', (override, expected) => expect(cardProblems({ ...good, ...override }, NOW)).toEqual(expected));

  it('wants four digits of CVC for American Express', () => {
    expect(cardProblems({ ...good, cardNumber: '3782 822463 10005', cardCvc: '1234' }, NOW)).toEqual({});
    expect(cardProblems({ ...good, cardNumber: '3782 822463 10005', cardCvc: '123' }, NOW)).toEqual({ cardCvc: 'invalid_cvc' });
  });
});

describe('parseCard', () => {
  it('keeps brand and last four, and normalises the number', () => {
    expect(parseCard(good, NOW)).toMatchObject({ number: '4242424242424242', brand: 'visa', last4: '4242', expMonth: 12, expYear: 2028 });
  });
  it('is null for a bad card', () => expect(parseCard({ ...good, cardCvc: '1' }, NOW)).toBeNull());
  it('knows the common brands', () => {
    expect([brandOf('4242'), brandOf('5555'), brandOf('2221'), brandOf('3782'), brandOf('3056'), brandOf('6011')]).toEqual([
      'visa',
      'mastercard',
      'mastercard',
      'amex',
      'diners',
      'unknown',
    ]);
  });
});
