import fs from 'node:fs';
import path from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { expect } from './fixtures';

// The customer e-mails the main server sent, as the loopback SMTP server received them
// (test/smtp-server.ts, started by playwright.config.ts): one `.eml` file per message, in the order
// they arrived, in a folder every worker shares.

function mailDir(): string {
  const dir = process.env.SERVICEPAY_E2E_MAIL_DIR;
  if (!dir) throw new Error('SERVICEPAY_E2E_MAIL_DIR is unset: run the journeys with playwright.config.ts');
  return dir;
}

const parsed = new Map<string, ParsedMail>();

/** Every message received so far, in arrival order. */
async function received(): Promise<ParsedMail[]> {
  const names = fs
    .readdirSync(mailDir())
    .filter((n) => n.endsWith('.eml'))
    .sort();
  const mails: ParsedMail[] = [];
  for (const name of names) {
    if (!parsed.has(name)) parsed.set(name, await simpleParser(fs.readFileSync(path.join(mailDir(), name))));
    mails.push(parsed.get(name)!);
  }
  return mails;
}

const isTo = (mail: ParsedMail, address: string) => !!mail.to && !Array.isArray(mail.to) && mail.to.value.some((v) => v.address === address);

/** The messages to `address`, in arrival order, once there are at least `count` of them. */
export async function mailTo(address: string, count: number): Promise<ParsedMail[]> {
  let mails: ParsedMail[] = [];
  await expect
    .poll(
      async () => {
        mails = (await received()).filter((m) => isTo(m, address));
        return mails.length;
      },
      { timeout: 20_000 },
    )
    .toBeGreaterThanOrEqual(count);
  return mails;
}
