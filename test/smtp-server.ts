import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

// A real SMTP server on loopback for tests (docs/customers.md#e-mails): it accepts every message
// and keeps it parsed, so a test reads what a mail client would. Given `mailDir`, it also writes
// each message in the order it arrived (`00000001.eml`, …), so the browser journeys, which run in several
// processes, share one server started with the test server (playwright.config.ts, e2e/mailbox.ts).

export interface TestSmtpServer {
  url: string;
  port: number;
  received: ParsedMail[];
  /** Resolves once `count` messages have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ParsedMail[]>;
  close(): Promise<void>;
}

export async function startSmtpServer(port = 0, { mailDir }: { mailDir?: string } = {}): Promise<TestSmtpServer> {
  const received: ParsedMail[] = [];
  const waiters: (() => void)[] = [];
  if (mailDir) fs.mkdirSync(mailDir, { recursive: true });
  let arrivals = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      const arrival = arrivals++;
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      new Promise<Buffer>((resolve, reject) => {
        stream.on('end', () => resolve(Buffer.concat(chunks)));
        stream.on('error', reject);
      })
        .then(async (raw) => {
          const mail = await simpleParser(raw);
          if (mailDir) {
            // Written whole, then renamed: a reader never sees half a message.
            const name = String(arrival).padStart(8, '0');
            fs.writeFileSync(path.join(mailDir, `${name}.tmp`), raw);
            fs.renameSync(path.join(mailDir, `${name}.tmp`), path.join(mailDir, `${name}.eml`));
          }
          received.push(mail);
          for (const wake of waiters.splice(0)) wake();
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const actual = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${actual}`,
    port: actual,
    received,
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} e-mails, got ${received.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

if (process.argv[1]?.endsWith('smtp-server.ts')) {
  const arg = (name: string) => process.argv[process.argv.indexOf(name) + 1];
  const port = Number(arg('--port') || 0);
  void startSmtpServer(port, { mailDir: arg('--mail-dir') }).then((smtp) => console.log(`SMTP server on ${smtp.url}`));
}
