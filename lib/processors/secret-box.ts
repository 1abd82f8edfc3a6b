import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { EnvError, env } from '@/lib/env';

// Merchants' sealed secrets at rest (docs/operations.md#secrets-at-rest): AES-256-GCM under the
// first of SECRETS_ENCRYPTION_KEYS, the key's id in the value and the merchant's id as associated
// data, so a value copied to another merchant's row does not open. Values sealed before key ids
// (`v1.`) still open under any listed key until `npm run secrets:rotate` re-seals them.
// Without a key, development derives one from the database's name; production refuses.

const VERSION = 'v2';
const LEGACY = 'v1';

export function isProductionDeployment(settings = env()): boolean {
  return settings.NODE_ENV === 'production' && !settings.SANDBOX_DEPLOYMENT;
}

export interface SealingKey {
  id: string;
  key: Buffer;
}

export class SecretBoxError extends Error {
  override name = 'SecretBoxError';
}

const keyBytes = (text: string) => (/^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64'));
const withId = (key: Buffer): SealingKey => ({ id: createHash('sha256').update(key).digest('hex').slice(0, 8), key });

/** The keys in force, newest (the one that seals) first. */
export function sealingKeys(settings = env()): SealingKey[] {
  const listed = settings.SECRETS_ENCRYPTION_KEYS ?? (settings.SECRETS_ENCRYPTION_KEY ? [settings.SECRETS_ENCRYPTION_KEY] : []);
  if (listed.length) return listed.map((text) => withId(keyBytes(text)));
  if (settings.NODE_ENV === 'production') {
    throw new EnvError(['SECRETS_ENCRYPTION_KEYS: required in production once a merchant has sealed secrets (openssl rand -hex 32)']);
  }
  return [withId(createHash('sha256').update(`servicepay-development-secrets:${settings.DATABASE_URL ?? settings.PGLITE_DATA_DIR}`).digest())];
}

export function sealSecret(plaintext: string, merchantId: string, settings = env()): string {
  const { id, key } = sealingKeys(settings)[0]!;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(merchantId, 'utf8'));
  const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, id, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
}

function decrypt(key: Buffer, iv: string, tag: string, sealed: string, aad: string | null): string {
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  if (aad !== null) decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
}

/** The plaintext of a value sealed for `merchantId`; throws SecretBoxError naming what is wrong. */
export function openSecret(stored: string, merchantId: string, settings = env()): string {
  const parts = stored.split('.');
  const keys = sealingKeys(settings);
  if (parts[0] === LEGACY && parts.length === 4) {
    for (const { key } of keys) {
      try {
        return decrypt(key, parts[1]!, parts[2]!, parts[3]!, null);
      } catch {
        // The next listed key.
      }
    }
    throw new SecretBoxError('a sealed secret (v1) opens under none of the listed keys');
  }
  if (parts[0] !== VERSION || parts.length !== 5) throw new SecretBoxError('not a sealed secret');
  const [, id, iv, tag, sealed] = parts as [string, string, string, string, string];
  const found = keys.find((k) => k.id === id);
  if (!found) throw new SecretBoxError(`a secret is sealed under key ${id}, which SECRETS_ENCRYPTION_KEYS does not list`);
  try {
    return decrypt(found.key, iv, tag, sealed, merchantId);
  } catch {
    throw new SecretBoxError(`a secret sealed under key ${id} does not open for merchant ${merchantId}: altered or moved from another merchant`);
  }
}

/** True when `stored` is already sealed under the newest key (`npm run secrets:rotate` leaves it). */
export function sealedUnderNewest(stored: string, settings = env()): boolean {
  const parts = stored.split('.');
  return parts[0] === VERSION && parts[1] === sealingKeys(settings)[0]!.id;
}
