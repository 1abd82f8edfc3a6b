import { timingSafeEqual } from 'node:crypto';
import { sha256Hex } from '@/lib/auth/secrets';

// Wompi's two hashes (docs/processors.md): our integrity signature and its event checksum.

/** sha256_hex(reference + amount_in_cents + currency [+ expiration_time] + integrity_secret). */
export function integritySignature(
  input: { reference: string; amountInCents: number; currency: string; expirationTime?: string },
  integritySecret: string,
): string {
  return sha256Hex(`${input.reference}${input.amountInCents}${input.currency}${input.expirationTime ?? ''}${integritySecret}`);
}

export interface WompiEvent {
  event: string;
  data: Record<string, unknown>;
  environment?: string;
  signature: { properties: string[]; checksum: string };
  timestamp: number;
  sent_at?: string;
}

/** '' when absent. */
function lookup(data: unknown, path: string): string {
  let value: unknown = data;
  for (const part of path.split('.')) {
    value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  }
  return value === undefined || value === null ? '' : String(value);
}

export function eventChecksum(event: Pick<WompiEvent, 'data' | 'signature' | 'timestamp'>, eventsSecret: string): string {
  const values = event.signature.properties.map((property) => lookup(event.data, property)).join('');
  return sha256Hex(`${values}${event.timestamp}${eventsSecret}`);
}

/** Any letter case: Wompi prints it upper-case. */
export function verifyEventChecksum(event: Pick<WompiEvent, 'data' | 'signature' | 'timestamp'>, eventsSecret: string): boolean {
  const given = Buffer.from(String(event.signature.checksum).toLowerCase(), 'utf8');
  const expected = Buffer.from(eventChecksum(event, eventsSecret), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
