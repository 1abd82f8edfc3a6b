import { describe, expect, it } from 'vitest';
import { type BoundedWork, runBounded } from './bounded';

// The day's bursts' pipeline: limits overall and per key, work taken in batches as it drains, a
// key refused for rate paused alone, and given up on after a while.

interface Item {
  key: string;
  n: number;
}

/** `perKey` items for each key, handed out in order (the keys interleaved) by a source that respects `held`. */
function source(keys: string[], perKey: number) {
  const left = keys.flatMap((key) => Array.from({ length: perKey }, (_, n) => ({ key, n })));
  const asked: { max: number; held: string[] }[] = [];
  return {
    asked,
    left,
    next: async (max: number, held: ReadonlySet<string>) => {
      asked.push({ max, held: [...held] });
      const out: Item[] = [];
      for (let i = 0; i < left.length && out.length < max; ) {
        if (held.has(left[i]!.key)) i++;
        else out.push(...left.splice(i, 1));
      }
      return out;
    },
  };
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Counts what is in flight while each item takes `ms`. */
function tracker(ms = 5) {
  const state = { now: 0, max: 0, perKey: new Map<string, number>(), maxPerKey: new Map<string, number>(), done: [] as Item[], held: 0, maxHeld: 0 };
  const run = async (item: Item) => {
    state.now++;
    state.max = Math.max(state.max, state.now);
    const k = (state.perKey.get(item.key) ?? 0) + 1;
    state.perKey.set(item.key, k);
    state.maxPerKey.set(item.key, Math.max(state.maxPerKey.get(item.key) ?? 0, k));
    await tick(ms);
    state.now--;
    state.perKey.set(item.key, state.perKey.get(item.key)! - 1);
    state.done.push(item);
  };
  return { state, run };
}

describe('runBounded', () => {
  it('keeps at most `overall` in flight and `perKey` of one key, and does every item once', async () => {
    const src = source(['a', 'b', 'c'], 40);
    const { state, run } = tracker();
    const work: BoundedWork<Item> = { next: src.next, keyOf: (i) => i.key, run };
    expect(await runBounded(work, { overall: 8, perKey: 3 })).toEqual({ rateLimited: 0, dropped: 0 });
    expect(state.done).toHaveLength(120);
    expect(new Set(state.done.map((i) => `${i.key}${i.n}`)).size).toBe(120);
    expect(state.max).toBe(8);
    expect(Math.max(...state.maxPerKey.values())).toBe(3);
  });

  it('takes work in batches as it drains, never holding more than twice the overall limit', async () => {
    const src = source(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], 100);
    let outstanding = 0;
    let maxOutstanding = 0;
    const work: BoundedWork<Item> = {
      next: async (max, held) => {
        const items = await src.next(max, held);
        outstanding += items.length;
        maxOutstanding = Math.max(maxOutstanding, outstanding);
        return items;
      },
      keyOf: (i) => i.key,
      run: async () => {
        await tick(1);
        outstanding--;
      },
    };
    await runBounded(work, { overall: 10, perKey: 10 });
    expect(src.left).toEqual([]);
    expect(maxOutstanding).toBeLessThanOrEqual(20);
    expect(src.asked.length).toBeGreaterThan(800 / 20);
    expect(Math.max(...src.asked.map((a) => a.max))).toBeLessThanOrEqual(20);
  });

  it('does not let one key take every slot: the others go on beside it', async () => {
    const src = source(['big'], 200);
    src.left.push(...Array.from({ length: 5 }, (_, n) => ({ key: 'small', n })));
    const { state, run } = tracker(2);
    const order: string[] = [];
    await runBounded({ next: src.next, keyOf: (i) => i.key, run: async (i) => (order.push(i.key), run(i)) }, { overall: 6, perKey: 3 });
    // The big key is held back once it has its share waiting, so the small one's items are taken and started early.
    expect(order.indexOf('small')).toBeLessThan(20);
    expect(state.maxPerKey.get('big')).toBe(3);
  });

  it('pauses a key refused for rate, with backoff, while the other keys go on; then finishes it', async () => {
    const src = source(['limited', 'free'], 20);
    const refusals = { left: 3 };
    const finished: Record<string, number[]> = { limited: [], free: [] };
    const started = Date.now();
    const work: BoundedWork<Item> = {
      next: src.next,
      keyOf: (i) => i.key,
      run: async (item) => {
        await tick(2);
        if (item.key === 'limited' && refusals.left > 0) {
          refusals.left--;
          return { retryAfterMs: null };
        }
        finished[item.key]!.push(Date.now() - started);
      },
    };
    const summary = await runBounded(work, { overall: 4, perKey: 2, firstBackoffMs: 60 });
    expect(summary.rateLimited).toBe(3);
    expect(finished.free).toHaveLength(20);
    expect(finished.limited).toHaveLength(20);
    // The free key was done before the limited key's first backoff (60 ms) ran out.
    expect(Math.max(...finished.free!)).toBeLessThan(Math.min(...finished.limited!));
    // While paused, the limited key was held back from the source.
    expect(src.asked.some((a) => a.held.includes('limited'))).toBe(true);
  });

  it('waits at least what Retry-After says', async () => {
    const src = source(['k'], 1);
    let tries = 0;
    const times: number[] = [];
    await runBounded(
      {
        next: src.next,
        keyOf: (i) => i.key,
        run: async () => {
          times.push(Date.now());
          return ++tries === 1 ? { retryAfterMs: 150 } : undefined;
        },
      },
      { overall: 2, perKey: 1, firstBackoffMs: 1 },
    );
    expect(tries).toBe(2);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(145);
  });

  it('gives up on a key refused for longer than giveUpAfterMs and hands its items back', async () => {
    const src = source(['stuck', 'ok'], 5);
    const dropped: Item[] = [];
    const done: Item[] = [];
    const summary = await runBounded(
      {
        next: src.next,
        keyOf: (i) => i.key,
        run: async (item) => {
          await tick(1);
          if (item.key === 'stuck') return { retryAfterMs: null };
          done.push(item);
        },
        dropped: async (items) => void dropped.push(...items),
      },
      { overall: 4, perKey: 2, firstBackoffMs: 10, maxBackoffMs: 20, giveUpAfterMs: 80 },
    );
    expect(done).toHaveLength(5);
    expect(dropped.length + src.left.length).toBe(5);
    expect(dropped.every((i) => i.key === 'stuck')).toBe(true);
    expect(summary.dropped).toBe(dropped.length);
    // Nothing of the stuck key was taken from the source once it was given up on.
    expect(src.left.every((i) => i.key === 'stuck')).toBe(true);
  });

  it('rejects with the first failure once what is in flight has finished', async () => {
    const src = source(['a'], 10);
    let finished = 0;
    await expect(
      runBounded(
        {
          next: src.next,
          keyOf: (i) => i.key,
          run: async (item) => {
            await tick(item.n === 2 ? 1 : 5);
            if (item.n === 2) throw new Error('database down');
            finished++;
          },
        },
        { overall: 4, perKey: 4 },
      ),
    ).rejects.toThrow('database down');
    expect(finished).toBe(3);
  });
});
