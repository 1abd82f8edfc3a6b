import { afterEach, vi } from 'vitest';

/**
 * Pins Date at `offsetMs` into the current fixed minute for the rest of the test, so that a
 * burst of requests against a per-minute limit never straddles a minute boundary (the limiter's
 * windows are fixed minutes). Call it inside the test; the real clock is back after it.
 */
export function pinClockInMinute(offsetMs = 5_000): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Math.floor(Date.now() / 60_000) * 60_000 + offsetMs);
}

afterEach(() => {
  vi.useRealTimers();
});

export const DAY_MS = 86_400_000;

/** 10:00 in Bogotá (15:00 UTC) on an ISO date: billing tests count days as Colombians do. */
export const bogota = (isoDate: string) => new Date(`${isoDate}T15:00:00.000Z`);

/** `date` moved by `ms`. */
export const later = (date: Date, ms: number) => new Date(date.getTime() + ms);
