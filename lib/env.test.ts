import { afterEach, describe, expect, it, vi } from 'vitest';
import { burstSettings, env, EnvError, parseEnv, resetEnvForTests } from './env';

describe('parseEnv', () => {
  it('gives the docs/operations.md#running-it defaults with nothing set', () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      PORT: 3000,
      APP_URL: 'http://localhost:3000',
      CHECKOUT_TOKEN_TTL_SECONDS: 86_400,
      SANDBOX_PENDING_MS: 3000,
      WEBHOOK_ALLOW_PRIVATE_NETWORK: false,
      SANDBOX_DEPLOYMENT: false,
      EINVOICE_CALL_TIMEOUT_MS: 30_000,
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.ADMIN_API_TOKEN).toBeUndefined();
  });

  it('derives APP_URL from PORT and trims a trailing slash from a given one', () => {
    expect(parseEnv({ PORT: '4000' }).APP_URL).toBe('http://localhost:4000');
    expect(parseEnv({ APP_URL: 'https://pay.example.com/' }).APP_URL).toBe('https://pay.example.com');
  });

  it.each([
    ['PORT', { PORT: 'eighty' }],
    ['PORT', { PORT: '70000' }],
    ['APP_URL', { APP_URL: 'ftp://pay.example.com' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://localhost/db' }],
    ['CHECKOUT_TOKEN_TTL_SECONDS', { CHECKOUT_TOKEN_TTL_SECONDS: '0' }],
    ['CHECKOUT_TOKEN_TTL_SECONDS', { CHECKOUT_TOKEN_TTL_SECONDS: '1.5' }],
    ['SANDBOX_PENDING_MS', { SANDBOX_PENDING_MS: '-1' }],
    ['WEBHOOK_ALLOW_PRIVATE_NETWORK', { WEBHOOK_ALLOW_PRIVATE_NETWORK: 'yes' }],
    ['SANDBOX_DEPLOYMENT', { SANDBOX_DEPLOYMENT: 'yes' }],
    ['EINVOICE_CALL_TIMEOUT_MS', { EINVOICE_CALL_TIMEOUT_MS: '0' }],
    ['ADMIN_API_TOKEN', { ADMIN_API_TOKEN: 'short' }],
    ['UPSTASH_REDIS_REST_TOKEN', { UPSTASH_REDIS_REST_URL: 'https://redis.example.com' }],
    ['UPSTASH_REDIS_REST_URL', { UPSTASH_REDIS_REST_TOKEN: 'token' }],
    ['BETTER_AUTH_SECRET', { BETTER_AUTH_SECRET: 'too-short' }],
    ['BETTER_AUTH_SECRET', { NODE_ENV: 'production' }],
  ])('refuses a bad %s with a message naming it', (name, source) => {
    let error: unknown;
    try {
      parseEnv(source);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EnvError);
    expect((error as EnvError).message).toContain(`${name}:`);
  });

  it('derives a stable BETTER_AUTH_SECRET outside production, one per database, and keeps a given one', () => {
    const first = parseEnv({}).BETTER_AUTH_SECRET;
    expect(first).toHaveLength(64);
    expect(parseEnv({}).BETTER_AUTH_SECRET).toBe(first);
    expect(parseEnv({ PGLITE_DATA_DIR: '/elsewhere' }).BETTER_AUTH_SECRET).not.toBe(first);
    const given = 'a'.repeat(32);
    expect(parseEnv({ NODE_ENV: 'production', BETTER_AUTH_SECRET: given }).BETTER_AUTH_SECRET).toBe(given);
  });
});

describe('env', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    resetEnvForTests();
  });

  it('reads the settings once: invalid ones throw the same error on every use, until re-read', () => {
    vi.stubEnv('PORT', 'eighty');
    resetEnvForTests();
    let first: unknown;
    try {
      env();
    } catch (error) {
      first = error;
    }
    expect(first).toBeInstanceOf(EnvError);
    vi.stubEnv('PORT', '4000');
    expect(() => env()).toThrow(first as EnvError);
    resetEnvForTests();
    expect(env().PORT).toBe(4000);
  });
});

describe('burstSettings', () => {
  it('reads the burst settings alone, as a production build loads them without its secrets', () => {
    expect(burstSettings({ NODE_ENV: 'production' })).toEqual({ SWEEP_CONCURRENCY: 128, SWEEP_MERCHANT_CONCURRENCY: 16, SWEEP_LEASE_SECONDS: 120 });
    expect(burstSettings({ SWEEP_MERCHANT_CONCURRENCY: '4' }).SWEEP_MERCHANT_CONCURRENCY).toBe(4);
    expect(() => burstSettings({ SWEEP_MERCHANT_CONCURRENCY: '0' })).toThrow(/SWEEP_MERCHANT_CONCURRENCY: expected a number above 0/);
  });
});
