import { hash, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from '@/lib/ids';

export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

/** Constant-time comparison of two strings of any lengths (both hashed first). */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(hash('sha256', a, 'buffer'), hash('sha256', b, 'buffer'));
}

/** Compares a presented secret with a stored SHA-256 hex digest, in constant time. */
export function secretMatchesHash(secret: string, storedHashHex: string): boolean {
  const presented = hash('sha256', secret, 'buffer');
  const stored = Buffer.from(storedHashHex, 'hex');
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}

// docs/api.md#authentication: every key is a test key while only the sandbox processor exists.
export const generateApiKey = () => `pk_test_${randomBase62(24)}`;
export const generateApiSecret = () => `sk_test_${randomBase62(32)}`;
export const generateWebhookSecret = () => `whsec_${randomBase62(32)}`;
