import { unstable_doesMiddlewareMatch as matches } from 'next/experimental/testing/server';
import { describe, expect, it } from 'vitest';
import { config } from '@/proxy';

// What proxy.ts runs on: the checkout, the portal and the manage pages, bare paths included, /dev
// (refused on a built server), and
// any other page for a multipart post only; never the API.
describe('the proxy matcher', () => {
  const runsOn = (url: string, headers: Record<string, string> = {}) => matches({ config, url, headers });

  it('takes /pay, /portal and /manage, bare and below, and nothing that only starts like them', () => {
    for (const url of ['/pay', '/pay/abc', '/pay/abc/payments/txn_1', '/portal', '/portal/settings/webhooks', '/manage', '/manage/tok', '/pay/abc?lang=en']) {
      expect(runsOn(url), url).toBe(true);
    }
    for (const url of ['/dev', '/dev/emails']) expect(runsOn(url), url).toBe(true);
    for (const url of ['/payments', '/portals', '/devices', '/manager/x', '/', '/merchants/plans/x/status', '/checkout/session/x', '/api/health', '/widget.js']) {
      expect(runsOn(url), url).toBe(false);
    }
  });

  it('takes another page for a multipart post only, and an API path never', () => {
    const multipart = { 'content-type': 'multipart/form-data; boundary=x' };
    expect(runsOn('/', multipart)).toBe(true);
    expect(runsOn('/demo', { 'content-type': 'MULTIPART/form-data; boundary=x' })).toBe(true);
    expect(runsOn('/demo', { 'content-type': 'application/json' })).toBe(false);
    // A Server Action's fetch, whatever its body, so one from another origin is a 403.
    expect(runsOn('/demo', { 'next-action': 'abc', 'content-type': 'text/plain;charset=UTF-8' })).toBe(true);
    expect(runsOn('/merchants/subscription-link', { 'next-action': 'abc' })).toBe(false);
    for (const url of ['/merchants/subscription-link', '/checkout/session/x', '/admin/merchants', '/api/health', '/processors/wompi/events', '/_next/static/x.js']) {
      expect(runsOn(url, multipart), url).toBe(false);
    }
  });
});
