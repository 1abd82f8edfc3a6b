// Hand-offs of committed events to the queue still running (dispatch.ts starts them after the
// response). Tracked apart from dispatch.ts so the in-process queue can wait for them without
// importing the dispatcher that feeds it.

const inFlight = new Set<Promise<void>>();

export function trackHandOff(work: () => Promise<void>): Promise<void> {
  const running = work().finally(() => inFlight.delete(running));
  inFlight.add(running);
  return running;
}

/** Resolves once every hand-off started so far has finished (tests, shutdown). */
export async function handOffsSettled(): Promise<void> {
  while (inFlight.size > 0) await Promise.all(inFlight);
}
