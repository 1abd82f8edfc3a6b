import { hash, timingSafeEqual } from 'node:crypto';
import { env } from '@/lib/env';
import { randomBase62 } from '@/lib/ids';

export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

/** Constant time for any lengths (both hashed first). */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(hash('sha256', a, 'buffer'), hash('sha256', b, 'buffer'));
}

export function secretMatchesHash(secret: string, storedHashHex: string): boolean {
  const presented = hash('sha256', secret, 'buffer');
  const stored = Buffer.from(storedHashHex, 'hex');
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}

export type KeyMode = 'live' | 'test';

/** Only a production deployment's keys are live. */
export function deploymentKeyMode(settings = env()): KeyMode {
  return settings.NODE_ENV === 'production' && !settings.SANDBOX_DEPLOYMENT ? 'live' : 'test';
}

export const generateApiKey = (mode: KeyMode = deploymentKeyMode()) => `pk_${mode}_${randomBase62(24)}`;
export const generateApiSecret = (mode: KeyMode = deploymentKeyMode()) => `sk_${mode}_${randomBase62(32)}`;
export const generateWebhookSecret = () => `whsec_${randomBase62(32)}`;
