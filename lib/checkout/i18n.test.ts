import { describe, expect, it } from 'vitest';
import { everyInterval } from '@/lib/i18n/interval';
import { checkoutCopy, fill, formatCop, formatExpiry, formatPhone, formCopy, resolveLang, trialFirstCharge } from './i18n';
import { methodsCopy } from './methods-i18n';

describe('formatCop', () => {
  it.each([
    [150000, '$ 1.500'],
    [150050, '$ 1.500,50'],
    [150005, '$ 1.500,05'],
    [100, '$ 1'],
    [99, '$ 0,99'],
    [0, '$ 0'],
    [100000000, '$ 1.000.000'],
    [99_999_999_999, '$ 999.999.999,99'],
    [-250000, '-$ 2.500'],
  ])('%i cents → %s', (cents, text) => expect(formatCop(cents)).toBe(text));
});

describe('resolveLang', () => {
  it('is Spanish with nothing to go on', () => {
    expect(resolveLang(undefined, undefined)).toBe('es');
    expect(resolveLang(null, '')).toBe('es');
  });

  it('follows ?lang= over the browser', () => {
    expect(resolveLang('en', 'es-CO,es;q=0.9')).toBe('en');
    expect(resolveLang('EN-us', null)).toBe('en');
    expect(resolveLang('es', 'en-US,en;q=0.9')).toBe('es');
    expect(resolveLang(['en', 'es'], null)).toBe('en');
  });

  it('ignores a ?lang= it does not offer', () => {
    expect(resolveLang('fr', 'en-GB')).toBe('en');
    expect(resolveLang('', null)).toBe('es');
  });

  it('takes the first of Spanish or English the browser prefers', () => {
    expect(resolveLang(null, 'en-US,en;q=0.9')).toBe('en');
    expect(resolveLang(null, 'es-CO,es;q=0.9,en;q=0.8')).toBe('es');
    expect(resolveLang(null, 'fr-FR,fr;q=0.9,en;q=0.8,es;q=0.7')).toBe('en');
    expect(resolveLang(null, 'de,es;q=0.5')).toBe('es');
  });

  it('weighs q values, not order, and skips q=0', () => {
    expect(resolveLang(null, 'en;q=0.4, es;q=0.8')).toBe('es');
    expect(resolveLang(null, 'en;q=0, es-CO;q=0.1')).toBe('es');
    expect(resolveLang(null, 'en;q=0')).toBe('es');
    expect(resolveLang(null, '*, en;q=0.5')).toBe('en');
  });

  it('survives junk', () => {
    expect(resolveLang(null, ';;,,q=')).toBe('es');
    expect(resolveLang(null, 'en;q=abc')).toBe('es');
  });
});

describe('formatPhone', () => {
  it('groups a Colombian mobile number', () => expect(formatPhone('+573001234567')).toBe('+57 300 123 4567'));
  it('leaves any other number as given', () => {
    expect(formatPhone('+14155550123')).toBe('+14155550123');
    expect(formatPhone('+5760123456')).toBe('+5760123456');
  });
});

describe('fill', () => {
  it('replaces known placeholders and keeps unknown ones', () =>
    expect(fill('Pagar {amount} a {merchant} {x}', { amount: '$ 1.500', merchant: 'Gimnasio' })).toBe(
      'Pagar $ 1.500 a Gimnasio {x}',
    ));
});

describe('copy', () => {
  const session = { planName: 'Plan Gimnasio', merchantName: 'Gimnasio Norte', amount: 150000 };

  it('names the modality as docs/checkout.md#hosted-page asks', () => {
    expect(checkoutCopy('es').modality).toEqual({ SUBSCRIPTION: 'Suscripción mensual', SINGLE: 'Pago único' });
    expect(checkoutCopy('en').modality.SINGLE).toBe('One-time payment');
  });

  it('puts the session into the form strings', () => {
    const copy = formCopy('es', { ...session, modality: 'SUBSCRIPTION' });
    expect(copy.pay).toBe('Pagar $ 1.500');
    expect(copy.authorization).toContain('Gimnasio Norte');
    expect(copy.authorization).toContain('$ 1.500 cada mes');
    expect(copy.status.approved.text).toContain('Plan Gimnasio');
    expect(formCopy('en', { ...session, modality: 'SINGLE' }).pay).toBe('Pay $ 1.500');
  });

  it('leaves no placeholder unfilled in what the form shows', () => {
    for (const lang of ['es', 'en'] as const) {
      for (const modality of ['SUBSCRIPTION', 'SINGLE'] as const) {
        const copy = formCopy(lang, { ...session, modality });
        const { rateLimited, ...rest } = copy.status;
        expect(JSON.stringify({ ...copy, status: rest })).not.toMatch(/\{\w+\}/);
        expect(rateLimited.text).toContain('{minutes}');
      }
    }
  });

  it('has the same keys in both languages', () => {
    const keys = (value: unknown, prefix = ''): string[] =>
      value && typeof value === 'object'
        ? Object.entries(value).flatMap(([k, v]) => keys(v, `${prefix}${k}.`))
        : [prefix];
    expect(keys(checkoutCopy('en'))).toEqual(keys(checkoutCopy('es')));
  });

  it('shows the expiry in Colombian time', () => {
    // 2026-11-22T20:30:00Z is 3:30 p. m. in Bogotá (UTC-5).
    expect(formatExpiry(Date.UTC(2026, 10, 22, 20, 30), 'es')).toMatch(/22 de noviembre de 2026.*3:30/);
    expect(formatExpiry(Date.UTC(2026, 10, 22, 20, 30), 'en')).toMatch(/November 22, 2026.*3:30/);
  });
});

describe('what each period is charged, apart from today (docs/billing.md#setup-fee, #billing-day)', () => {
  const session = { planName: 'Club', merchantName: 'Gimnasio', modality: 'SUBSCRIPTION' as const };

  it('leaves a setup fee out of what each month authorizes', () => {
    const copy = formCopy('es', { ...session, amount: 3_590_000, setupFee: 600_000 });
    expect(copy.pay).toBe('Pagar $ 35.900');
    expect(copy.authorization).toContain('a cobrar $ 29.900 cada mes');
  });

  it('authorizes the full price after a prorated first charge, fee or not', () => {
    expect(formCopy('es', { ...session, amount: 1_000_000, firstPeriod: { fullAmount: 2_990_000 } }).authorization).toContain('a cobrar $ 29.900 cada mes');
    const withFee = formCopy('es', { ...session, amount: 1_600_000, setupFee: 600_000, firstPeriod: { fullAmount: 2_990_000 } });
    expect(withFee.pay).toBe('Pagar $ 16.000');
    expect(withFee.status.approved.text).toContain('le cobrará $ 29.900 cada mes');
  });
});

describe('a free trial with a setup fee: the fee today, the first charge at its end (docs/billing.md#setup-fee)', () => {
  const session = { planName: 'Club', merchantName: 'Gimnasio', modality: 'SUBSCRIPTION' as const, trial: { days: 7 } };

  it('tells the first charge apart from the fee, with a coupon or without', () => {
    expect(trialFirstCharge({ amount: 3_590_000, setupFee: 600_000 })).toBe(2_990_000);
    expect(trialFirstCharge({ amount: 3_590_000, setupFee: 600_000, discount: { amountDue: 2_992_000 } })).toBe(2_392_000);
    expect(trialFirstCharge({ amount: 2_990_000 })).toBe(2_990_000);
  });

  it('says the fee was charged as the trial started, never that nothing was', () => {
    const started = formCopy('es', { ...session, amount: 3_590_000, setupFee: 600_000 }).status.trialStarted.text;
    expect(started).toContain('Se le cobró solo el cargo de inscripción de $ 6.000');
    expect(started).toContain('le cobrará $ 29.900 cada mes cuando termine la prueba');
    expect(started).not.toContain('No se le cobró nada');
    expect(formCopy('es', { ...session, amount: 2_990_000 }).status.trialStarted.text).toContain('No se le cobró nada');
    expect(formCopy('en', { ...session, amount: 3_590_000, setupFee: 600_000 }).status.trialStarted.text).toContain('Only the setup fee of $ 6.000 was charged');
  });
});

describe('a plan charged other than monthly (docs/billing.md#intervals)', () => {
  const session = { planName: 'Club', merchantName: 'Gimnasio', amount: 2_990_000, modality: 'SUBSCRIPTION' as const };

  it('says its interval in the authorization and the approval, in the page’s language', () => {
    const quarterly = formCopy('es', { ...session, interval: { unit: 'month', count: 3 } });
    expect(quarterly.authorization).toBe('Al pagar, autoriza a Gimnasio a cobrar $ 29.900 cada 3 meses a esta tarjeta hasta que cancele la suscripción.');
    expect(quarterly.status.approved.text).toBe('Su suscripción a Club quedó activa. Gimnasio le cobrará $ 29.900 cada 3 meses.');
    expect(formCopy('en', { ...session, interval: { unit: 'week', count: 1 } }).authorization).toContain('$ 29.900 to this card every week until');
    expect(methodsCopy('es', { ...session, interval: { unit: 'year', count: 2 } }).nequi.authorization).toContain('$ 29.900 cada 2 años');
  });

  it('keeps the monthly words when no interval is given', () => {
    expect(formCopy('es', session).authorization).toContain('cobrar $ 29.900 cada mes a esta tarjeta');
  });

  it.each([
    [{ unit: 'week', count: 1 }, 'cada semana', 'every week'],
    [{ unit: 'week', count: 2 }, 'cada 2 semanas', 'every 2 weeks'],
    [{ unit: 'month', count: 1 }, 'cada mes', 'every month'],
    [{ unit: 'month', count: 3 }, 'cada 3 meses', 'every 3 months'],
    [{ unit: 'year', count: 1 }, 'cada año', 'every year'],
    [{ unit: 'year', count: 3 }, 'cada 3 años', 'every 3 years'],
  ] as const)('%o → %s / %s', (interval, es, en) => {
    expect(everyInterval(interval, 'es')).toBe(es);
    expect(everyInterval(interval, 'en')).toBe(en);
  });
});
