import { startReceiver } from './webhook-receiver';

// A test webhook receiver (./webhook-receiver.ts) in a process of its own, driven over IPC: for a
// test whose client blocks its own event loop while the receiver acts, as a remote receiver would
// (closing an idle connection). Started by ./webhook-receiver-remote.ts.

async function main() {
  const receiver = await startReceiver();
  process.send!({ url: receiver.url });
  process.on('message', (message) => {
    if (message === 'close-idle') receiver.closeIdleConnections();
    if (message === 'count') process.send!({ received: receiver.received.length, connections: receiver.connections });
    if (message === 'stop') void receiver.close().then(() => process.exit(0));
  });
}

if (process.send) void main();
