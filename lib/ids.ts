import { randomBytes } from 'node:crypto';

// Base62 in ASCII order, so strings built from it sort in plain byte order.
export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// Performance (docs/performance.md): pooled random bytes.
// CSPRNG bytes drawn a pool at a time, as Node's randomUUID does: one call per few hundred ids
// rather than one per id (every API request makes a request id). Each byte is used once.
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let used = 0;

function randomByte(): number {
  if (used === pool.length) {
    pool = randomBytes(POOL_BYTES);
    used = 0;
  }
  return pool[used++]!;
}

/** `length` characters of base62 from the CSPRNG, without modulo bias. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    // 248 = 4 * 62: bytes at or above it would favour the first characters.
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

const TIME_CHARS = 8; // 62^8 ms reaches past the year 8000
const RANDOM_CHARS = 16;

export const ID_PREFIXES = ['sub', 'txn', 'evt', 'mch', 'cus', 'eml', 'rnl', 'cpn', 'inv', 'usg'] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

/** A prefixed id (docs/api.md#create-a-payment-link): `sub_` + 8 chars of ms time + 16 random chars; later ids sort later. */
export function createId(prefix: IdPrefix, now: number = Date.now()): string {
  let time = '';
  let rest = Math.floor(now);
  for (let i = 0; i < TIME_CHARS; i++) {
    time = BASE62[rest % 62] + time;
    rest = Math.floor(rest / 62);
  }
  return `${prefix}_${time}${randomBase62(RANDOM_CHARS)}`;
}

const ID_BODY = /^[0-9A-Za-z]{24}$/;

/** The pattern of an id with this prefix, for the OpenAPI document and JSON Schema. */
export function idPattern(prefix: IdPrefix): string {
  return `^${prefix}_${ID_BODY.source.slice(1, -1)}$`;
}

export function isId(prefix: IdPrefix, value: string): boolean {
  return value.startsWith(`${prefix}_`) && ID_BODY.test(value.slice(prefix.length + 1));
}

/** The epoch milliseconds an id was made at (its time characters). */
export function idTime(id: string): number {
  const time = id.slice(id.indexOf('_') + 1, id.indexOf('_') + 1 + TIME_CHARS);
  let ms = 0;
  for (const char of time) ms = ms * 62 + BASE62.indexOf(char);
  return ms;
}
