import { describe, expect, it } from 'vitest';
import { embedTargetOrigin, frameAncestors, originMatchesEntry } from './embed';

describe('frameAncestors (docs/checkout.md#embedding)', () => {
  it('allows only our own origin for an empty list', () => {
    expect(frameAncestors([])).toBe("frame-ancestors 'self'");
  });

  it('lists the entries scheme-less, normalised and without repeats', () => {
    expect(frameAncestors(['shop.example.com', '*.Example.com', 'localhost:3000', 'SHOP.example.com'])).toBe(
      "frame-ancestors 'self' shop.example.com *.example.com localhost:3000",
    );
  });

  it('never puts an entry the schema refuses into the header', () => {
    expect(frameAncestors(["shop.example.com; script-src 'unsafe-inline'", 'https://evil.example', '*', 'ok.example.com'])).toBe(
      "frame-ancestors 'self' ok.example.com",
    );
  });
});

describe('originMatchesEntry', () => {
  const matches = (origin: string, entry: string, own = 'https:') => originMatchesEntry(new URL(origin), entry, own);

  it('matches a host on its default port, in the page scheme or its secure upgrade', () => {
    expect(matches('https://shop.example.com', 'shop.example.com')).toBe(true);
    expect(matches('http://shop.example.com', 'shop.example.com')).toBe(false);
    expect(matches('https://shop.example.com', 'shop.example.com', 'http:')).toBe(true);
    expect(matches('https://shop.example.com:8443', 'shop.example.com')).toBe(false);
  });

  it('matches a port only when named', () => {
    expect(matches('http://127.0.0.1:3620', '127.0.0.1:3620', 'http:')).toBe(true);
    expect(matches('http://127.0.0.1:3621', '127.0.0.1:3620', 'http:')).toBe(false);
    expect(matches('http://localhost', 'localhost:80', 'http:')).toBe(true);
  });

  it('reads *. as subdomains only', () => {
    expect(matches('https://a.example.com', '*.example.com')).toBe(true);
    expect(matches('https://a.b.example.com', '*.example.com')).toBe(true);
    expect(matches('https://example.com', '*.example.com')).toBe(false);
    expect(matches('https://badexample.com', '*.example.com')).toBe(false);
  });
});

describe('embedTargetOrigin', () => {
  const app = 'https://pay.servicepay.co';

  it('accepts our own origin whatever the list', () => {
    expect(embedTargetOrigin(app, [], app)).toBe(app);
  });

  it('accepts an origin on the list', () => {
    expect(embedTargetOrigin('https://shop.example.com', ['shop.example.com'], app)).toBe('https://shop.example.com');
    expect(embedTargetOrigin('https://a.example.com', ['*.example.com'], app)).toBe('https://a.example.com');
  });

  it.each([
    ['missing', undefined],
    ['not on the list', 'https://evil.example'],
    ['the bare domain of a wildcard', 'https://example.com'],
    ['plain http when the checkout is https', 'http://shop.example.com'],
    ['with a path', 'https://shop.example.com/'],
    ['not a URL', 'shop.example.com'],
    ['another scheme', 'javascript:alert(1)'],
    ['an opaque origin', 'null'],
  ])('refuses an origin %s', (_, claimed) => {
    expect(embedTargetOrigin(claimed, ['shop.example.com', '*.example.com'], app)).toBeNull();
  });
});
