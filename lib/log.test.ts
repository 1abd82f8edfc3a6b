import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withApi } from '@/lib/api/handler';
import pino from 'pino';
import { errorFields, isoTime, log, withRequestLog } from './log';

// pino's lines, as the test destination hands them to the console: each one JSON object.

const lines = () => [...vi.mocked(console.log).mock.calls, ...vi.mocked(console.error).mock.calls].map((call) => JSON.parse(String(call[0])));

afterEach(() => {
  vi.restoreAllMocks();
});

function captureConsole() {
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
}

describe('isoTime', () => {
  it("writes what pino's isoTime writes, within a second, across seconds and at their edges", () => {
    const start = Date.UTC(2026, 10, 24, 23, 59, 58, 990);
    for (const now of [start, start + 5, start + 9, start + 10, start + 99, start + 100, start + 1_000, start + 1_009, start + 2_011, start + 86_400_000, 0, Date.now()]) {
      vi.setSystemTime(now);
      expect(isoTime(now)).toBe(pino.stdTimeFunctions.isoTime());
    }
    vi.useRealTimers();
  });
});

describe('log', () => {
  it('writes one JSON line per event with level, ISO time, message and fields', () => {
    captureConsole();
    log.warn('rate limiter unavailable', { bucket: 'merchant' });
    expect(lines()).toEqual([{ level: 'warn', time: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/), msg: 'rate limiter unavailable', bucket: 'merchant' }]);
  });

  it('puts the request id on every line written inside a request, domain code included, and on none outside', async () => {
    captureConsole();
    const domainWork = async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      log.error('payment processor failed', errorFields(new Error('refused')));
    };
    await withRequestLog('req_abc', domainWork);
    log.info('outside');
    const [inside, outside] = lines().sort((a, b) => (a.msg < b.msg ? 1 : -1));
    expect(inside).toMatchObject({ level: 'error', msg: 'payment processor failed', requestId: 'req_abc', error: 'Error', message: 'refused' });
    expect(outside).toMatchObject({ msg: 'outside' });
    expect(outside).not.toHaveProperty('requestId');
  });

  it("gives a route's unhandled error and its request line the X-Request-Id the reply carries", async () => {
    captureConsole();
    const route = withApi(async () => {
      log.warn('about to fail');
      throw new Error('boom');
    });
    const res = await route(new Request('http://localhost/x', { headers: { 'x-request-id': 'support-ticket-42' } }), { params: Promise.resolve({}) });
    expect(res.status).toBe(500);
    expect(res.headers.get('x-request-id')).toBe('support-ticket-42');
    const written = lines();
    expect(written.map((l) => l.msg).sort()).toEqual(['about to fail', 'request', 'unhandled error']);
    for (const line of written) expect(line.requestId).toBe('support-ticket-42');
    expect(JSON.stringify(await res.json())).not.toContain('boom');
  });

  it('outside tests, buffers stdout yet loses no line when the process exits or dies', () => {
    // A real process with the production destination (no VITEST): 200 lines, then an exit or a crash.
    const run = (ending: string) =>
      spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', `const { log } = await import('./lib/log.ts'); for (let i = 0; i < 200; i++) log.info('line', { i }); ${ending}`], {
        encoding: 'utf8',
        env: { ...process.env, VITEST: '' },
      });
    for (const ending of ['process.exit(0);', "throw new Error('crash');"]) {
      const out = run(ending).stdout.trim().split('\n').map((l) => JSON.parse(l));
      expect(out.map((l) => l.i)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    }
  });
});
