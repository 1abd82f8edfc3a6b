import { describe, expect, it } from 'vitest';
import { firstParam, paramOf } from './search-params';

describe('firstParam', () => {
  it('reads a repeated name as its first value, and an absent one as undefined', () => {
    expect(firstParam('en')).toBe('en');
    expect(firstParam(['en', 'es'])).toBe('en');
    expect(firstParam([])).toBeUndefined();
    expect(firstParam(undefined)).toBeUndefined();
    expect(firstParam(null)).toBeUndefined();
    expect(firstParam('')).toBe('');
  });
});

describe('paramOf', () => {
  it('reads a page query and a URL alike', () => {
    expect(paramOf({ lang: ['en', 'es'], q: 'x' }, 'lang')).toBe('en');
    expect(paramOf(new URLSearchParams('lang=en&lang=es'), 'lang')).toBe('en');
    expect(paramOf(new URLSearchParams('q=x'), 'lang')).toBeUndefined();
    expect(paramOf({}, 'lang')).toBeUndefined();
  });
});
