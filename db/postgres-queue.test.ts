import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// postgres.js's internal queue, as patched by patches/postgres+3.4.9.patch
// (docs/operations.md#database-client). The pool keeps its connections in these queues; unpatched,
// a queue that never emptied by a shift kept a hole for every item it gave out and searched them
// all on every remove, so each query cost more than the one before.
interface Queue<T> {
  readonly length: number;
  push(x: T): T;
  shift(): T | undefined;
  remove(x: T): T | null;
}
type QueueFactory = <T>(initial?: T[]) => Queue<T>;

const require = createRequire(import.meta.url);
const packageDir = path.join(path.dirname(require.resolve('postgres')), '..', '..');

// Node's build (what tsx and vitest load), the ESM build (what Next.js bundles) and Cloudflare's.
async function builds(): Promise<[string, QueueFactory][]> {
  const esm = async (dir: string) => ((await import(pathToFileURL(path.join(packageDir, dir, 'src', 'queue.js')).href)) as { default: QueueFactory }).default;
  return [
    ['cjs', require(path.join(packageDir, 'cjs', 'src', 'queue.js')) as QueueFactory],
    ['esm', await esm('.')],
    ['cf', await esm('cf')],
  ];
}

/** How long an array `remove` searched: the queue's own array, read through Array#indexOf. */
function searchedBy(remove: () => unknown): number {
  const indexOf = Array.prototype.indexOf;
  let searched = -1;
  Array.prototype.indexOf = function (this: unknown[], ...args: Parameters<typeof indexOf>) {
    searched = this.length - (args[1] ?? 0);
    return indexOf.apply(this, args);
  };
  try {
    remove();
  } finally {
    Array.prototype.indexOf = indexOf;
  }
  return searched;
}

describe('postgres.js queue (patched)', () => {
  it('gives items out first in, first out, and removes one from anywhere', async () => {
    for (const [build, Queue] of await builds()) {
      const q = Queue(['a']);
      q.push('b');
      q.push('c');
      expect(q.remove('b'), build).toBe('b');
      expect(q.remove('b'), build).toBeNull();
      expect(q.length, build).toBe(2);
      expect([q.shift(), q.shift()], build).toEqual(['a', 'c']);
      expect(q.length, build).toBe(0);
      expect(q.shift(), build).toBeUndefined();
      expect(q.length, build).toBe(0);
      q.push('d');
      expect([q.length, q.shift()], build).toEqual([1, 'd']);
    }
  });

  it('searches only what it holds, however many items went through a queue that never emptied', async () => {
    for (const [build, Queue] of await builds()) {
      // A saturated pool: connections taken from the front, others pushed behind them,
      // and one moved out from the middle, without the queue ever being empty.
      const q = Queue<number>([0, 1, 2]);
      for (let i = 3; i < 20_000; i++) {
        q.push(i);
        q.shift();
      }
      const searched = searchedBy(() => q.remove(19_998));
      expect(q.length, build).toBe(2);
      expect(searched, build).toBeGreaterThan(0);
      expect(searched, build).toBeLessThan(200);
      expect([q.shift(), q.shift()], build).toEqual([19_997, 19_999]);
    }
  });
});
