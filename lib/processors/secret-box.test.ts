import { describe, expect, it } from 'vitest';
import { parseEnv } from '@/lib/env';
import { processorOfMerchant } from './index';
import { isProductionDeployment, openSecret, sealSecret } from './secret-box';

const KEY = 'a'.repeat(64);
const production = (extra: Record<string, string> = {}) =>
  parseEnv({ NODE_ENV: 'production', BETTER_AUTH_SECRET: 'x'.repeat(32), ...extra });

describe('processor secrets at rest', () => {
  it('seals with AES-256-GCM: a fresh IV each time, tampering detected, the wrong key refused', () => {
    const settings = parseEnv({ SECRETS_ENCRYPTION_KEY: KEY });
    const a = sealSecret('prv_test_secret', settings);
    const b = sealSecret('prv_test_secret', settings);
    expect(a).not.toBe(b);
    expect(a).not.toContain('prv_test_secret');
    expect(openSecret(a, settings)).toBe('prv_test_secret');
    const [v, iv, tag, data] = a.split('.');
    // The second-to-last character always carries data bits; it is changed (was 'A' → 'B', else → 'A').
    // Testing the last character instead, as before, left it unchanged in one run in 64.
    const flipped = `${v}.${iv}.${tag}.${data!.slice(0, -2)}${data!.at(-2) === 'A' ? 'B' : 'A'}${data!.slice(-1)}`;
    expect(flipped).not.toBe(a);
    expect(() => openSecret(flipped, settings)).toThrow();
    expect(() => openSecret(a, parseEnv({ SECRETS_ENCRYPTION_KEY: 'b'.repeat(64) }))).toThrow();
  });

  it('requires SECRETS_ENCRYPTION_KEY in production, and refuses a key that is not 32 bytes', () => {
    expect(() => sealSecret('x', production())).toThrow(/SECRETS_ENCRYPTION_KEY: required in production/);
    expect(openSecret(sealSecret('x', production({ SECRETS_ENCRYPTION_KEY: KEY })), production({ SECRETS_ENCRYPTION_KEY: KEY }))).toBe('x');
    expect(() => parseEnv({ SECRETS_ENCRYPTION_KEY: 'short' })).toThrow(/SECRETS_ENCRYPTION_KEY/);
    expect(parseEnv({ SECRETS_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') }).SECRETS_ENCRYPTION_KEY).toBeDefined();
  });

  it('tells production from sandbox deployments', () => {
    expect(isProductionDeployment(production())).toBe(true);
    expect(isProductionDeployment(production({ SANDBOX_DEPLOYMENT: '1' }))).toBe(false);
    expect(isProductionDeployment(parseEnv({ NODE_ENV: 'development' }))).toBe(false);
  });
});

describe('the processor of a merchant', () => {
  it('is the sandbox for a merchant without Wompi keys outside production', () => {
    expect(processorOfMerchant({ processorType: 'sandbox', wompiPublicKey: null, wompiSecrets: null })?.kind).toBe('sandbox');
    expect(processorOfMerchant({ processorType: 'sandbox', wompiPublicKey: null, wompiSecrets: null }, production({ SANDBOX_DEPLOYMENT: '1' }))?.kind).toBe('sandbox');
  });

  it('is none in production for a merchant without Wompi keys: production never approves through the sandbox', () => {
    expect(processorOfMerchant({ processorType: 'sandbox', wompiPublicKey: null, wompiSecrets: null }, production())).toBeNull();
  });

  it('is its Wompi account when it has keys', () => {
    const wompiSecrets = sealSecret(JSON.stringify({ privateKey: 'prv_test_a', eventsSecret: 'test_events_a', integritySecret: 'test_integrity_a' }));
    expect(processorOfMerchant({ processorType: 'wompi', wompiPublicKey: 'pub_test_a', wompiSecrets })?.kind).toBe('wompi');
  });
});
