import { describe, expect, it } from 'vitest';
import { BASE62, createId, isId, randomBase62 } from './ids';

describe('createId', () => {
  it('has the prefix and 24 base62 characters', () => {
    const id = createId('sub');
    expect(id).toMatch(/^sub_[0-9A-Za-z]{24}$/);
    expect(isId('sub', id)).toBe(true);
  });

  it('sorts later ids after earlier ones in plain byte order', () => {
    const times = [0, 1, 61, 62, 1_700_000_000_000, 1_800_000_000_000, 4_102_444_800_000];
    const ids = times.map((t) => createId('txn', t));
    const sorted = [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(sorted).toEqual(ids);
  });

  it('differs between two ids of the same millisecond', () => {
    expect(createId('evt', 5)).not.toBe(createId('evt', 5));
  });
});

describe('isId', () => {
  it.each([
    ['sub', 'sub_'],
    ['sub', 'txn_0000000000000000000000aa'],
    ['sub', 'sub_000000000000000000000aa'],
    ['sub', 'sub_0000000000000000000000aaa'],
    ['sub', 'sub_00000000000000000000-0aa'],
    ['sub', '../../etc/passwd'],
  ] as const)('refuses %s %s', (prefix, value) => {
    expect(isId(prefix, value)).toBe(false);
  });
});

describe('randomBase62', () => {
  it('uses only the alphabet and spreads over it', () => {
    const sample = randomBase62(62_000);
    const counts = new Map<string, number>();
    for (const ch of sample) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect([...counts.keys()].every((c) => BASE62.includes(c))).toBe(true);
    expect(counts.size).toBe(62);
    // 1000 expected per character; a biased generator drifts far outside this band.
    for (const n of counts.values()) expect(n).toBeGreaterThan(800);
    for (const n of counts.values()) expect(n).toBeLessThan(1200);
  });
});
