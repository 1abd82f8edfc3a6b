import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseEnv } from '@/lib/env';
import { processorOfMerchant } from './index';
import { isProductionDeployment, openSecret, sealedUnderNewest, sealingKeys, sealSecret } from './secret-box';

const KEY = 'a'.repeat(64);
const NEW_KEY = 'b'.repeat(64);
const production = (extra: Record<string, string> = {}) =>
  parseEnv({ NODE_ENV: 'production', BETTER_AUTH_SECRET: 'x'.repeat(32), ...extra });
const one = parseEnv({ SECRETS_ENCRYPTION_KEY: KEY });
const both = parseEnv({ SECRETS_ENCRYPTION_KEYS: `${NEW_KEY},${KEY}` });

/** A value as sealed before key ids and merchant binding (`v1.iv.tag.data`). */
function sealedV1(plaintext: string, keyHex: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(keyHex, 'hex'), iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
}

describe('secrets at rest', () => {
  it('seals with AES-256-GCM under a key id: a fresh IV each time, tampering detected, another key refused', () => {
    const a = sealSecret('prv_test_secret', 'mch_a', one);
    const b = sealSecret('prv_test_secret', 'mch_a', one);
    expect(a).not.toBe(b);
    expect(a).not.toContain('prv_test_secret');
    expect(a.split('.').slice(0, 2)).toEqual(['v2', sealingKeys(one)[0]!.id]);
    expect(openSecret(a, 'mch_a', one)).toBe('prv_test_secret');
    const [v, id, iv, tag, data] = a.split('.');
    // The second-to-last character always carries data bits (the last may not).
    const flipped = `${v}.${id}.${iv}.${tag}.${data!.slice(0, -2)}${data!.at(-2) === 'A' ? 'B' : 'A'}${data!.slice(-1)}`;
    expect(flipped).not.toBe(a);
    expect(() => openSecret(flipped, 'mch_a', one)).toThrow(/altered or moved/);
    expect(() => openSecret(a, 'mch_a', parseEnv({ SECRETS_ENCRYPTION_KEY: NEW_KEY }))).toThrow(/SECRETS_ENCRYPTION_KEYS does not list/);
    expect(() => openSecret('v2.deadbeef.x.y.z', 'mch_a', one)).toThrow(/key deadbeef, which SECRETS_ENCRYPTION_KEYS does not list/);
    expect(() => openSecret('plain', 'mch_a', one)).toThrow(/not a sealed secret/);
  });

  it('binds a value to its merchant: moved to another merchant\'s row, it does not open', () => {
    const sealed = sealSecret('prv_test_secret', 'mch_a', one);
    expect(() => openSecret(sealed, 'mch_b', one)).toThrow(/does not open for merchant mch_b/);
  });

  it('with an old key listed beside the new one, seals under the new and opens both, and values of the old format', () => {
    const old = sealSecret('under-old', 'mch_a', one);
    const fresh = sealSecret('under-new', 'mch_a', both);
    expect(fresh.split('.')[1]).toBe(sealingKeys(both)[0]!.id);
    expect(openSecret(old, 'mch_a', both)).toBe('under-old');
    expect(openSecret(fresh, 'mch_a', both)).toBe('under-new');
    expect([sealedUnderNewest(old, both), sealedUnderNewest(fresh, both)]).toEqual([false, true]);
    const legacy = sealedV1('legacy', KEY);
    expect(openSecret(legacy, 'mch_any', both)).toBe('legacy');
    expect(sealedUnderNewest(legacy, one)).toBe(false);
    expect(() => openSecret(sealedV1('legacy', 'c'.repeat(64)), 'mch_any', both)).toThrow(/opens under none/);
  });

  it('requires a key in production, refuses one that is not 32 bytes, and both settings at once', () => {
    expect(() => sealSecret('x', 'mch_a', production())).toThrow(/SECRETS_ENCRYPTION_KEYS: required in production/);
    const settings = production({ SECRETS_ENCRYPTION_KEY: KEY });
    expect(openSecret(sealSecret('x', 'mch_a', settings), 'mch_a', settings)).toBe('x');
    expect(() => parseEnv({ SECRETS_ENCRYPTION_KEY: 'short' })).toThrow(/SECRETS_ENCRYPTION_KEY/);
    expect(() => parseEnv({ SECRETS_ENCRYPTION_KEYS: `${KEY},short` })).toThrow(/SECRETS_ENCRYPTION_KEYS: each key/);
    expect(() => parseEnv({ SECRETS_ENCRYPTION_KEY: KEY, SECRETS_ENCRYPTION_KEYS: NEW_KEY })).toThrow(/not both/);
    expect(parseEnv({ SECRETS_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') }).SECRETS_ENCRYPTION_KEY).toBeDefined();
  });

  it('tells production from sandbox deployments', () => {
    expect(isProductionDeployment(production())).toBe(true);
    expect(isProductionDeployment(production({ SANDBOX_DEPLOYMENT: '1' }))).toBe(false);
    expect(isProductionDeployment(parseEnv({ NODE_ENV: 'development' }))).toBe(false);
  });
});

describe('the processor of a merchant', () => {
  const sandboxMerchant = { id: 'mch_a', processorType: 'sandbox' as const, wompiPublicKey: null, wompiSecrets: null };

  it('is the sandbox for a merchant without Wompi keys outside production', () => {
    expect(processorOfMerchant(sandboxMerchant)?.kind).toBe('sandbox');
    expect(processorOfMerchant(sandboxMerchant, production({ SANDBOX_DEPLOYMENT: '1' }))?.kind).toBe('sandbox');
  });

  it('is none in production for a merchant without Wompi keys: production never approves through the sandbox', () => {
    expect(processorOfMerchant(sandboxMerchant, production())).toBeNull();
  });

  it('is its Wompi account when it has keys', () => {
    const wompiSecrets = sealSecret(JSON.stringify({ privateKey: 'prv_test_a', eventsSecret: 'test_events_a', integritySecret: 'test_integrity_a' }), 'mch_a');
    expect(processorOfMerchant({ id: 'mch_a', processorType: 'wompi', wompiPublicKey: 'pub_test_a', wompiSecrets })?.kind).toBe('wompi');
  });
});
