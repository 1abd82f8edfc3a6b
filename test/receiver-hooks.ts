import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { deliveriesSettled } from '@/lib/unit-of-work';
import { installNetworkTripwire } from './network-tripwire';
import { holdWebhookHandOffs, restoreWebhookQueue } from './webhook-queue';
import { type Receiver, reply, startReceiver } from './webhook-receiver';

/**
 * A real HTTPS receiver and the network tripwire for one test file, with their hooks: started
 * before the first test, closed after the last; after each test the receiver forgets what it got
 * and answers 200 again, and no test may have tried to reach anything outside loopback. Returns a
 * stand-in that reads through to the receiver once started (use it inside tests and hooks). A
 * file's own afterEach registered after this call runs before this one's.
 */
export function fileReceiver(): Receiver {
  let receiver: Receiver | undefined;
  let tripwire: ReturnType<typeof installNetworkTripwire> | undefined;
  beforeAll(async () => {
    tripwire = installNetworkTripwire();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    tripwire?.uninstall();
  });
  afterEach(() => {
    receiver!.received.length = 0;
    receiver!.respondWith(reply(200, 'ok'));
    expect(tripwire!.violations).toEqual([]);
  });
  const started = () => {
    if (!receiver) throw new Error('the receiver starts in beforeAll: use it inside a test or hook');
    return receiver;
  };
  return {
    get url() { return started().url; },
    get port() { return started().port; },
    get received() { return started().received; },
    get connections() { return started().connections; },
    respondWith: (responder) => started().respondWith(responder),
    closeIdleConnections: () => started().closeIdleConnections(),
    waitFor: (count, timeoutMs) => started().waitFor(count, timeoutMs),
    close: () => started().close(),
  };
}

/**
 * Holds each test's first hand-offs of new events (test/webhook-queue.ts, afresh before every
 * test), waits for every delivery after each test, and puts the queue back after the file.
 * `eventIds` are the current test's held events.
 */
export function heldHandOffsPerTest(): { readonly eventIds: string[] } {
  let held: string[] = [];
  beforeEach(() => {
    held = holdWebhookHandOffs();
  });
  afterEach(() => deliveriesSettled());
  afterAll(() => restoreWebhookQueue());
  return {
    get eventIds() {
      return held;
    },
  };
}
