import { describe, expect, it } from 'vitest';
import { isCrossOriginPost, isRefusedServerAction } from './same-origin';

// Where a browser's POST comes from (lib/http/same-origin.ts): Fetch Metadata first, else Origin.
const headers = (values: Record<string, string>) => new Headers({ host: 'pay.example.com', ...values });

describe('isCrossOriginPost', () => {
  it('takes a same-origin Sec-Fetch-Site, whatever the Origin (null under no-referrer)', () => {
    expect(isCrossOriginPost(headers({ 'sec-fetch-site': 'same-origin', origin: 'null' }))).toBe(false);
    expect(isCrossOriginPost(headers({ 'sec-fetch-site': 'same-origin', origin: 'https://pay.example.com' }))).toBe(false);
  });

  it('refuses cross-site, same-site and none', () => {
    for (const site of ['cross-site', 'same-site', 'none', 'CROSS-SITE', '']) {
      expect(isCrossOriginPost(headers({ 'sec-fetch-site': site, origin: 'null' })), site).toBe(true);
    }
  });

  it('without Fetch Metadata: our Origin, null or none are taken; another host or garbage is refused', () => {
    expect(isCrossOriginPost(headers({ origin: 'https://pay.example.com' }))).toBe(false);
    expect(isCrossOriginPost(headers({ origin: 'null' }))).toBe(false);
    expect(isCrossOriginPost(headers({}))).toBe(false);
    expect(isCrossOriginPost(headers({ origin: 'https://evil.example' }))).toBe(true);
    expect(isCrossOriginPost(headers({ origin: 'https://pay.example.com:8443' }))).toBe(true);
    expect(isCrossOriginPost(headers({ origin: 'not a url' }))).toBe(true);
  });

  it('reads the forwarded host as Next.js does', () => {
    const forwarded = new Headers({ host: 'internal:3000', 'x-forwarded-host': 'pay.example.com', origin: 'https://pay.example.com' });
    expect(isCrossOriginPost(forwarded)).toBe(false);
  });
});

describe('isRefusedServerAction', () => {
  it('refuses what Next would (a foreign or null Origin) and what Fetch Metadata calls cross-origin', () => {
    expect(isRefusedServerAction(headers({ origin: 'https://evil.example' }))).toBe(true);
    expect(isRefusedServerAction(headers({ origin: 'null', 'sec-fetch-site': 'same-origin' }))).toBe(true);
    expect(isRefusedServerAction(headers({ origin: 'https://pay.example.com', 'sec-fetch-site': 'cross-site' }))).toBe(true);
    expect(isRefusedServerAction(headers({ origin: 'https://pay.example.com', 'sec-fetch-site': 'same-origin' }))).toBe(false);
    expect(isRefusedServerAction(headers({}))).toBe(false);
  });
});
