import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { hang, type Receiver, reply, startReceiver } from '../test/webhook-receiver';

// The webhook receivers of bench:webhooks on a thread of their own: a merchant's receiver is not in
// our process, and on our event loop the receivers' TLS and HTTP work would count as delivery's.
// Each arrival is reported with its time (ms since the epoch, sub-millisecond), taken on arrival.

type Command = { type: 'start' } | { type: 'respond'; index: number; hang: boolean } | { type: 'close' };
type Report = { type: 'started'; url: string } | { type: 'arrived'; id: string; at: number } | { type: 'done' };

if (!isMainThread) {
  const receivers: Receiver[] = [];
  const post = (report: Report) => parentPort!.postMessage(report);
  parentPort!.on('message', async (command: Command) => {
    if (command.type === 'start') {
      const receiver = await startReceiver();
      const push = receiver.received.push.bind(receiver.received);
      receiver.received.push = (...items) => {
        const at = performance.timeOrigin + performance.now();
        for (const item of items) post({ type: 'arrived', id: String(item.headers['x-webhook-id']), at });
        return push(...items);
      };
      receivers.push(receiver);
      post({ type: 'started', url: receiver.url });
    } else if (command.type === 'respond') {
      receivers[command.index]!.respondWith(command.hang ? hang : reply(200, 'ok'));
      post({ type: 'done' });
    } else {
      for (const receiver of receivers) await receiver.close();
      post({ type: 'done' });
    }
  });
}

/** Starts the receivers' thread; `onArrival` gets each event id with its arrival on this thread's performance.now() clock. */
export function startReceiverThread(onArrival: (eventId: string, at: number) => void) {
  const worker = new Worker(__filename);
  const replies: ((report: Report) => void)[] = [];
  worker.on('message', (report: Report) => {
    if (report.type === 'arrived') onArrival(report.id, report.at - performance.timeOrigin);
    else replies.shift()!(report);
  });
  const ask = (command: Command) =>
    new Promise<Report>((resolve) => {
      replies.push(resolve);
      worker.postMessage(command);
    });
  return {
    /** Starts one more receiver; resolves with its URL. Receivers are numbered from 0 in order. */
    start: async () => ((await ask({ type: 'start' })) as { url: string }).url,
    respond: async (index: number, { hang }: { hang: boolean }) => void (await ask({ type: 'respond', index, hang })),
    close: async () => {
      await ask({ type: 'close' });
      await worker.terminate();
    },
  };
}
