import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { EnvError, env } from '@/lib/env';

// Merchants' processor secrets at rest: AES-256-GCM with SECRETS_ENCRYPTION_KEY. Without the key,
// development derives one from the database's name; production refuses.

const VERSION = 'v1';

export function isProductionDeployment(settings = env()): boolean {
  return settings.NODE_ENV === 'production' && !settings.SANDBOX_DEPLOYMENT;
}

function keyOf(settings = env()): Buffer {
  const configured = settings.SECRETS_ENCRYPTION_KEY;
  if (configured) return /^[0-9a-f]{64}$/i.test(configured) ? Buffer.from(configured, 'hex') : Buffer.from(configured, 'base64');
  if (settings.NODE_ENV === 'production') {
    throw new EnvError(['SECRETS_ENCRYPTION_KEY: required in production once a merchant has Wompi keys (openssl rand -hex 32)']);
  }
  return createHash('sha256').update(`servicepay-development-secrets:${settings.DATABASE_URL ?? settings.PGLITE_DATA_DIR}`).digest();
}

export function sealSecret(plaintext: string, settings = env()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(settings), iv);
  const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
}

export function openSecret(stored: string, settings = env()): string {
  const [version, iv, tag, sealed] = stored.split('.');
  if (version !== VERSION || !iv || !tag || sealed === undefined) throw new Error('Not a sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', keyOf(settings), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
}
