import { describe, expect, it } from 'vitest';
import { MEMORY_RELEASE, memoryReleaser, type MemoryProbe } from './server-memory';

// The decision of lib/server-memory.ts with a fake process. What a real server's RSS does after
// a burst is test/resilience/fuzz.resilience.ts's.

const MB = 2 ** 20;
/** Checks that make one quiet window. */
const WINDOW = MEMORY_RELEASE.quietForMs / MEMORY_RELEASE.checkEveryMs;

function fakeProcess(start: { rssMB: number; heapMB: number }) {
  const state = { ...start, requestsPerCheck: 0, collections: 0, pooledMB: 0 };
  const probe: MemoryProbe = {
    rss: () => state.rssMB * MB,
    heapTotal: () => state.heapMB * MB,
    requestsSinceLastCall: () => state.requestsPerCheck,
    // As V8 does: the pool is given back, then what the collection empties goes to the pool.
    collect: async () => {
      state.collections++;
      state.rssMB -= state.pooledMB;
      state.pooledMB = state.heapMB - 90;
      state.heapMB = 90;
    },
  };
  return { state, probe };
}

async function checks(releaser: ReturnType<typeof memoryReleaser>, count: number) {
  const results = [];
  for (let i = 0; i < count; i++) results.push(await releaser.check());
  return results;
}

/** A releaser of a fake process that has been through one quiet window. */
async function settled(start: Parameters<typeof fakeProcess>[0]) {
  const { state, probe } = fakeProcess(start);
  const releaser = memoryReleaser(probe);
  await checks(releaser, WINDOW);
  return { state, probe, releaser };
}

describe('memoryReleaser', () => {
  it('gives back what a burst grew past the start-up figure once requests stop, and waits for as much growth again', async () => {
    const { state, probe } = fakeProcess({ rssMB: 200, heapMB: 90 });
    const releaser = memoryReleaser(probe);
    expect(releaser.floor).toBe(200 * MB);
    // A burst from the start: requests, the RSS grows, then none.
    state.requestsPerCheck = 5_000;
    state.rssMB = 600;
    state.pooledMB = 300;
    expect(await checks(releaser, 3)).toEqual(['busy', 'busy', 'busy']);
    state.requestsPerCheck = 0;
    // A whole window without requests is needed.
    expect(await checks(releaser, WINDOW)).toEqual([...Array(WINDOW - 1).fill('busy'), 'released']);
    expect(state.collections).toBe(1);
    expect(state.rssMB).toBe(300);
    expect(releaser.floor).toBe(300 * MB);
    // Quiet on, the RSS where the release left it: no collection over and over.
    expect(await checks(releaser, 10)).toEqual(Array(10).fill('quiet'));
    expect(state.collections).toBe(1);
    // A smaller burst later: given back only past 10 % (32 MB at least) over that.
    state.rssMB = 331;
    expect(await checks(releaser, 3)).toEqual(['quiet', 'quiet', 'quiet']);
    state.rssMB = 333;
    state.pooledMB = 30;
    expect(await checks(releaser, 1)).toEqual(['released']);
    expect(state.collections).toBe(2);
  });

  it('counts a trickle of requests, a load balancer’s health checks, as quiet', async () => {
    const { state, probe } = fakeProcess({ rssMB: 330, heapMB: 90 });
    const releaser = memoryReleaser(probe);
    state.requestsPerCheck = MEMORY_RELEASE.quietRequests / WINDOW;
    expect(await checks(releaser, WINDOW)).toEqual([...Array(WINDOW - 1).fill('busy'), 'quiet']);
    state.rssMB = 600;
    expect(await checks(releaser, 1)).toEqual(['released']);
    state.rssMB = 600;
    state.requestsPerCheck = MEMORY_RELEASE.quietRequests / WINDOW + 1;
    expect(await checks(releaser, 1)).toEqual(['busy']);
  });

  it('does nothing while more requests come, however much the RSS grew', async () => {
    const { state, releaser } = await settled({ rssMB: 330, heapMB: 90 });
    state.rssMB = 900;
    state.requestsPerCheck = MEMORY_RELEASE.quietRequests + 1;
    expect(await checks(releaser, 20)).toEqual(Array(20).fill('busy'));
    expect(state.collections).toBe(0);
    // One busy check within the window is enough to wait.
    state.requestsPerCheck = 0;
    expect(await checks(releaser, WINDOW - 1)).toEqual(Array(WINDOW - 1).fill('busy'));
    expect(await checks(releaser, 1)).toEqual(['released']);
  });

  it('collects twice when the first collection emptied much of the heap into the pool', async () => {
    const { state, releaser } = await settled({ rssMB: 330, heapMB: 90 });
    state.rssMB = 600;
    state.heapMB = 290;
    state.pooledMB = 100;
    expect(await checks(releaser, 1)).toEqual(['released']);
    expect(state.collections).toBe(2);
    expect(state.rssMB).toBe(300);
  });

  it('leaves a process alone whose RSS grew by less than both growth settings require', async () => {
    const { state, releaser } = await settled({ rssMB: 400, heapMB: 90 });
    // Over 32 MB above the floor but under 10 % of 400 MB.
    state.rssMB = 400 + 39;
    expect(await checks(releaser, 8)).toEqual(Array(8).fill('quiet'));
    expect(state.collections).toBe(0);
    state.rssMB = 400 + 41;
    expect(await checks(releaser, 1)).toEqual(['released']);
  });
});
