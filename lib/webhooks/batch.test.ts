import { describe, expect, it } from 'vitest';
import { batchCalls } from './batch';

// Deliveries share their database statements through batchCalls (./batch.ts).

/** A run that records each batch it is given and doubles the items; throws on a 0. */
function doubler() {
  const runs: number[][] = [];
  let gate: Promise<void> = Promise.resolve();
  const call = batchCalls(async (items: number[]) => {
    runs.push(items);
    await gate;
    if (items.includes(0)) throw new Error('bad item');
    return items.map((i) => i * 2);
  });
  return { runs, call, hold: (until: Promise<void>) => (gate = until) };
}

describe('batchCalls', () => {
  it('runs the calls made in one turn of the event loop as one batch, each getting its own output', async () => {
    const { runs, call } = doubler();
    expect(await Promise.all([call(1), call(2), call(3)])).toEqual([2, 4, 6]);
    expect(runs).toEqual([[1, 2, 3]]);
  });

  it('gathers the calls made while a batch runs into the next one', async () => {
    const { runs, call, hold } = doubler();
    let release!: () => void;
    hold(new Promise<void>((resolve) => (release = resolve)));
    const first = call(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toEqual([[1]]);
    const later = [call(2), call(3)];
    release();
    expect(await Promise.all([first, ...later])).toEqual([2, 4, 6]);
    expect(runs).toEqual([[1], [2, 3]]);
  });

  it('runs a failed batch again one call at a time, so only the bad call fails', async () => {
    const { runs, call } = doubler();
    const outcomes = await Promise.allSettled([call(1), call(0), call(2)]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(outcomes[0]).toMatchObject({ value: 2 });
    expect(outcomes[2]).toMatchObject({ value: 4 });
    expect(runs).toEqual([[1, 0, 2], [1], [0], [2]]);
  });

  it('puts at most 100 calls in one batch', async () => {
    const { runs, call } = doubler();
    await Promise.all(Array.from({ length: 250 }, (_, i) => call(i + 1)));
    expect(runs.map((r) => r.length)).toEqual([100, 100, 50]);
  });
});
