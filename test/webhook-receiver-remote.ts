import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';

// Starts test/webhook-receiver-process.ts in a child process (see there why).

export interface RemoteReceiver {
  url: string;
  /** Asks the receiver to close its idle connections; returns once asked, not once done. */
  closeIdleConnections(): void;
  /** Requests received and TLS connections accepted so far. */
  counts(): Promise<{ received: number; connections: number }>;
  stop(): Promise<void>;
}

function nextMessage<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message as T));
    child.once('exit', (code) => reject(new Error(`the receiver process exited (${code})`)));
  });
}

export async function startRemoteReceiver(): Promise<RemoteReceiver> {
  const child = fork(path.join(__dirname, 'webhook-receiver-process.ts'), { execArgv: ['--import', 'tsx'] });
  const { url } = await nextMessage<{ url: string }>(child);
  return {
    url,
    closeIdleConnections: () => child.send('close-idle'),
    counts: () => {
      const reply = nextMessage<{ received: number; connections: number }>(child);
      child.send('count');
      return reply;
    },
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('stop');
      await exited;
    },
  };
}
