import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import { accounts, merchants, users } from '@/db/schema';
import { useTestDatabase } from '@/test/database';
import { createPortalUser, currentUser, signIn, signOutEverywhere, signUp } from './accounts';
import { getAuth } from './auth';

let db: Db;
beforeAll(async () => {
  db = (await useTestDatabase()).db;
});

let sequence = 0;
/** A fresh e-mail and address per test, so the sign-in limits of one test do not reach another. */
function fresh() {
  sequence += 1;
  const email = `owner${sequence}-${Date.now()}@example.com`;
  return { email, headers: new Headers({ 'x-forwarded-for': `10.0.${sequence}.1` }) };
}

const PASSWORD = 'correct horse 42';

async function signedUp() {
  const { email, headers } = fresh();
  const result = await signUp(db, { merchantName: 'Gimnasio Norte', name: 'Ana', email, password: PASSWORD }, headers);
  if (!result.ok) throw new Error(result.problem);
  return { email, headers, merchantId: result.merchantId };
}

/** Signs in as better-auth's HTTP layer would answer, and returns the session cookie it set. */
async function sessionCookie(email: string, password = PASSWORD): Promise<Headers> {
  const auth = await getAuth();
  const { headers } = await auth.api.signInEmail({ body: { email, password }, returnHeaders: true });
  const cookie = headers.get('set-cookie')!.split(';')[0]!;
  return new Headers({ cookie });
}

describe('signUp', () => {
  it('creates the merchant and its first user, with a hashed password and no API key yet', async () => {
    const { email, merchantId } = await signedUp();
    const [user] = await db.select().from(users).where(eq(users.email, email));
    expect(user?.merchantId).toBe(merchantId);
    const [merchant] = await db.select().from(merchants).where(eq(merchants.id, merchantId));
    expect(merchant?.name).toBe('Gimnasio Norte');
    expect(merchant?.webhookSecret).toMatch(/^whsec_/);
    const [account] = await db.select().from(accounts).where(eq(accounts.userId, user!.id));
    expect(account?.password).toBeTruthy();
    expect(account?.password).not.toContain(PASSWORD);
  });

  it.each([
    ['too_short', 'short1!'],
    ['one_kind', 'onlyletterspassword'],
    ['one_kind', '12345678901'],
    ['one_kind', 'aaaaaaaaaaaaa1'],
  ])('refuses a weak password (%s) and creates nothing', async (problem, password) => {
    const { email, headers } = fresh();
    const before = await db.$count(merchants);
    expect(await signUp(db, { merchantName: 'X', name: 'Ana', email, password }, headers)).toEqual({ ok: false, problem });
    expect(await db.$count(merchants)).toBe(before);
  });

  it('refuses a password that contains the e-mail name', async () => {
    const { headers } = fresh();
    const result = await signUp(db, { merchantName: 'X', name: 'Ana', email: 'carolina@example.com', password: 'Carolina-2024' }, headers);
    expect(result).toEqual({ ok: false, problem: 'contains_email' });
  });

  it('refuses a taken e-mail whatever its case, and leaves no merchant behind', async () => {
    const { email, headers } = await signedUp();
    const before = await db.$count(merchants);
    const again = await signUp(db, { merchantName: 'Otro', name: 'Eva', email: email.toUpperCase(), password: PASSWORD }, headers);
    expect(again).toEqual({ ok: false, problem: 'email_taken' });
    expect(await db.$count(merchants)).toBe(before);
  });

  it('refuses a malformed e-mail or an empty business name', async () => {
    const { headers } = fresh();
    expect(await signUp(db, { merchantName: 'X', name: 'Ana', email: 'not-an-email', password: PASSWORD }, headers)).toEqual({ ok: false, problem: 'invalid' });
    expect(await signUp(db, { merchantName: ' ', name: 'Ana', email: 'a@example.com', password: PASSWORD }, headers)).toEqual({ ok: false, problem: 'invalid' });
  });
});

describe('signIn', () => {
  it('signs in with the right password', async () => {
    const { email, headers } = await signedUp();
    expect(await signIn({ email, password: PASSWORD }, headers)).toEqual({ ok: true });
  });

  it('answers a wrong password and an unknown e-mail the same way', async () => {
    const { email, headers } = await signedUp();
    const wrong = await signIn({ email, password: 'wrong password 1' }, headers);
    const unknown = await signIn({ email: `nobody-${email}`, password: PASSWORD }, headers);
    expect(wrong).toEqual({ ok: false, problem: 'invalid_credentials' });
    expect(unknown).toEqual(wrong);
  });

  it('limits attempts per e-mail, even with the right password after the limit', async () => {
    const { email, headers } = await signedUp();
    for (let i = 0; i < 5; i++) expect(await signIn({ email, password: `wrong ${i} password` }, headers)).toMatchObject({ ok: false, problem: 'invalid_credentials' });
    const limited = await signIn({ email, password: PASSWORD }, headers);
    expect(limited).toMatchObject({ ok: false, problem: 'rate_limited' });
    expect(limited.ok === false && limited.problem === 'rate_limited' && limited.retryAfterSeconds).toBeGreaterThan(0);
  });
});

describe('sessions', () => {
  it('finds the user and merchant of a session cookie, and none without one', async () => {
    const { email, merchantId } = await signedUp();
    const cookie = await sessionCookie(email);
    expect(await currentUser(cookie)).toMatchObject({ email, merchantId, name: 'Ana' });
    expect(await currentUser(new Headers())).toBeNull();
  });

  it('signing out everywhere ends every session of the user', async () => {
    const { email } = await signedUp();
    const phone = await sessionCookie(email);
    const laptop = await sessionCookie(email);
    await signOutEverywhere(laptop);
    expect(await currentUser(laptop)).toBeNull();
    expect(await currentUser(phone)).toBeNull();
  });
});

describe('createPortalUser', () => {
  it('gives an existing merchant a login that signs in, and refuses a weak password', async () => {
    const { merchantId } = await signedUp();
    const { email } = fresh();
    await createPortalUser({ merchantId, name: 'Demo', email, password: 'demo-Kx81pQz3' });
    const user = await currentUser(await sessionCookie(email, 'demo-Kx81pQz3'));
    expect(user).toMatchObject({ merchantId, email });
    await expect(createPortalUser({ merchantId, name: 'Demo', email: fresh().email, password: 'short' })).rejects.toThrow('too_short');
  });
});
