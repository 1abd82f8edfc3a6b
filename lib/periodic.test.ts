import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startPeriodic, stopPeriodic } from './periodic';

// The one helper every in-process scheduled job runs on (lib/runners.ts), on a fake clock.

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  stopPeriodic();
  vi.useRealTimers();
});

describe('startPeriodic', () => {
  it('runs the task every interval, and a second start of the same name (a dev reload) adds no timer', async () => {
    const task = vi.fn(async () => {});
    startPeriodic('job', 1000, task);
    startPeriodic('job', 1000, task);
    await vi.advanceTimersByTimeAsync(3000);
    expect(task).toHaveBeenCalledTimes(3);
  });

  it('never overlaps a run that is still going', async () => {
    let release!: () => void;
    const task = vi.fn(() => new Promise<void>((resolve) => (release = resolve)));
    startPeriodic('slow', 1000, task);
    await vi.advanceTimersByTimeAsync(5000);
    expect(task).toHaveBeenCalledTimes(1);
    release();
    await vi.advanceTimersByTimeAsync(1000);
    expect(task).toHaveBeenCalledTimes(2);
  });

  it('logs a failed run and runs again at the next tick', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const task = vi.fn().mockRejectedValueOnce(new Error('database away')).mockResolvedValue(undefined);
    startPeriodic('flaky', 1000, task);
    await vi.advanceTimersByTimeAsync(2000);
    expect(task).toHaveBeenCalledTimes(2);
    expect(errors.mock.calls.map((c) => String(c[0]))).toEqual([expect.stringContaining('flaky failed')]);
    errors.mockRestore();
  });
});
