import { describe, expect, it } from 'vitest';
import { fill, formatCop } from './format';
import { LANG_TAG, resolveLang } from './locale';

// The shared core; lib/checkout/i18n.test.ts holds the checkout's own cases of the same functions.

describe('formatCop', () => {
  it('formats with Intl as es-CO pesos, a plain space after the sign, decimals only for cents', () => {
    expect(formatCop(150000)).toBe('$ 1.500');
    expect(formatCop(150050)).toBe('$ 1.500,50');
    expect(formatCop(-5)).toBe('-$ 0,05');
    expect(formatCop(12_345_678_900)).toBe('$ 123.456.789');
  });

  it('never shows a fraction of a cent', () => {
    expect(formatCop(150000.4)).toBe('$ 1.500');
    expect(formatCop(150049.6)).toBe('$ 1.500,50');
  });
});

describe('locale', () => {
  it('negotiates es-CO or en, Spanish first', () => {
    expect(resolveLang(null, 'pt-BR,en;q=0.5')).toBe('en');
    expect(resolveLang(undefined, 'pt-BR')).toBe('es');
    expect(LANG_TAG[resolveLang('es', null)]).toBe('es-CO');
  });

  it('fills placeholders and leaves unknown ones', () => {
    expect(fill('{a} y {b}', { a: 1 })).toBe('1 y {b}');
  });
});
