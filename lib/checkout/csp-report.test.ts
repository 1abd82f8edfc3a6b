import { afterEach, describe, expect, it, vi } from 'vitest';
import { POST } from '@/app/checkout/csp-report/route';
import { log } from '@/lib/log';
import { cspViolations } from './csp-report';

afterEach(() => {
  vi.restoreAllMocks();
});

const legacy = {
  'csp-report': {
    'document-uri': 'https://pay.example.co/pay/chk_SECRETTOKEN123?lang=en',
    'violated-directive': 'script-src-elem',
    'effective-directive': 'script-src-elem',
    'blocked-uri': 'https://skimmer.example/x.js?card=1',
    disposition: 'enforce',
  },
};

describe('cspViolations', () => {
  it('reads the legacy report, masking the page’s token and keeping only the blocked origin', () => {
    expect(cspViolations(legacy)).toEqual([{ page: '/pay/…', directive: 'script-src-elem', blocked: 'https://skimmer.example', disposition: 'enforce' }]);
  });

  it('reads the Reporting API’s list and skips other report types', () => {
    const body = [
      { type: 'csp-violation', body: { documentURL: 'https://pay.example.co/manage/mng_TOKEN', effectiveDirective: 'connect-src', blockedURL: 'https://evil.example/collect', disposition: 'enforce' } },
      { type: 'deprecation', body: {} },
    ];
    expect(cspViolations(body)).toEqual([{ page: '/manage/…', directive: 'connect-src', blocked: 'https://evil.example', disposition: 'enforce' }]);
  });

  it('refuses anything else', () => {
    expect(cspViolations({})).toBeNull();
    expect(cspViolations([])).toBeNull();
    expect(cspViolations('x')).toBeNull();
    expect(cspViolations({ 'csp-report': 'x' })).toBeNull();
  });
});

describe('POST /checkout/csp-report', () => {
  const post = (body: string, ip = '198.51.100.20') =>
    POST(new Request('http://localhost/checkout/csp-report', { method: 'POST', body, headers: { 'content-type': 'application/csp-report', 'x-forwarded-for': ip } }));

  it('logs a violation without the token and answers 204', async () => {
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
    expect((await post(JSON.stringify(legacy))).status).toBe(204);
    expect(warn).toHaveBeenCalledWith('content security policy violation', expect.objectContaining({ page: '/pay/…', blocked: 'https://skimmer.example' }));
    expect(JSON.stringify(warn.mock.calls)).not.toContain('SECRETTOKEN');
  });

  it('answers 400 to a body that is not a report, 413 to one over 16 KiB, and logs nothing', async () => {
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
    expect((await post('not json', '198.51.100.21')).status).toBe(400);
    expect((await post('{"a":1}', '198.51.100.21')).status).toBe(400);
    expect((await post(JSON.stringify({ 'csp-report': { x: 'y'.repeat(17 * 1024) } }), '198.51.100.21')).status).toBe(413);
    expect(warn).not.toHaveBeenCalled();
  });

  it('takes 30 reports a minute per address', async () => {
    vi.spyOn(log, 'warn').mockImplementation(() => {});
    const statuses = [];
    for (let i = 0; i < 32; i++) statuses.push((await post(JSON.stringify(legacy), '198.51.100.22')).status);
    expect(statuses.slice(0, 30).every((s) => s === 204)).toBe(true);
    // A sliding window that turns a minute during the burst may admit one more.
    expect(statuses.slice(30)).toContain(429);
  });
});
