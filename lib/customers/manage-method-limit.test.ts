import { describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import type { ProcessorSource } from '@/lib/processors';
import { replaceMethodWithForm } from './manage-form';

// The manage page's method replacement is velocity-limited (docs/customers.md#the-manage-page):
// 3 tries a minute per link and 10 per client address, refused before any processor is asked.

const db = {} as Db;
const processors = {} as ProcessorSource;
let sequence = 0;

function link(): string {
  sequence += 1;
  return `mng_${String(sequence).padStart(8, '0')}${'A'.repeat(32)}`;
}

const post = (token: string, ip: string) =>
  replaceMethodWithForm(db, processors, {
    token,
    req: new Request(`http://localhost/manage/${token}/method`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
      body: 'cardNumber=4111&cardExpiry=&cardCvc=&cardHolder=',
    }),
  });

const problemOf = async (response: Promise<Response>) => new URL((await response).headers.get('location')!, 'http://localhost').searchParams.get('problem');

describe('replacing the method on the manage page', () => {
  it('allows 3 tries a minute per link, then refuses without reading the card', async () => {
    const token = link();
    const problems = [];
    for (let i = 0; i < 5; i++) problems.push(await problemOf(post(token, `198.51.100.${40 + i}`)));
    expect(problems.slice(0, 3)).toEqual(['card', 'card', 'card']);
    // A sliding window that turns a minute during the burst may admit one more.
    expect(problems.slice(3)).toContain('too_many');
  });

  it('allows 10 tries a minute per client address across links', async () => {
    const problems = [];
    for (let i = 0; i < 12; i++) problems.push(await problemOf(post(link(), '198.51.100.99')));
    expect(problems.slice(0, 10).every((p) => p === 'card')).toBe(true);
    expect(problems.slice(10)).toContain('too_many');
  });
});
