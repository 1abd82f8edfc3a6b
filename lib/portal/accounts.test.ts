import { and, desc, eq, like } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '@/db/client';
import { accounts, emails, merchants, users, verifications } from '@/db/schema';
import { listMerchantEmails } from '@/db/queries/emails';
import { handOffsSettled } from '@/lib/unit-of-work';
import { useTestDatabase } from '@/test/database';
import { changePassword, createPortalUser, currentUser, endSession, listSessions, requestPasswordReset, resetPassword, signIn, signOutEverywhere, signUp, verifyEmail } from './accounts';
import { getAuth, withNewUserMerchant } from './auth';

let db: Db;
beforeAll(async () => {
  db = (await useTestDatabase()).db;
});
afterEach(() => {
  vi.useRealTimers();
});

let sequence = 0;
/** A fresh e-mail and address per test, so the limits of one test do not reach another. */
function fresh() {
  sequence += 1;
  const email = `owner${sequence}-${Date.now()}@example.com`;
  return { email, headers: new Headers({ 'x-forwarded-for': `10.0.${sequence}.1` }) };
}

const PASSWORD = 'correct horse 42';

/**
 * Tries until a rate-limited answer, at most `max` times, and answers how many went before it. A
 * sliding window that turns a minute during the loop may admit one more than the limit.
 */
async function attemptsBeforeRefusal(attempt: () => Promise<{ ok: boolean; problem?: string }>, max = 8): Promise<number> {
  for (let i = 0; i < max; i++) if ((await attempt()).problem === 'rate_limited') return i;
  return max;
}

/** The newest e-mail of `kind` to `to`, and the token its link carries. */
async function lastEmail(to: string, kind: (typeof emails.$inferSelect)['kind']) {
  await handOffsSettled();
  const [email] = await db
    .select()
    .from(emails)
    .where(and(eq(emails.toAddress, to), eq(emails.kind, kind)))
    .orderBy(desc(emails.id))
    .limit(1);
  const link = email && /https?:\/\/\S+/.exec(email.text);
  const token = link ? new URL(link[0]).searchParams.get('token') : null;
  return { email, token };
}

async function signedUp({ verified = true } = {}) {
  const { email, headers } = fresh();
  const result = await signUp(db, { merchantName: 'Gimnasio Norte', name: 'Ana', email, password: PASSWORD }, headers);
  if (!result.ok || !result.merchantId) throw new Error(JSON.stringify(result));
  if (verified) expect(await verifyEmail((await lastEmail(email, 'account_verification')).token!, new Headers())).toEqual({ ok: true });
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
  it('creates the merchant and its first user, unverified, and e-mails a link that is kept out of the sandbox log', async () => {
    const { email, headers } = fresh();
    const result = await signUp(db, { merchantName: 'Gimnasio Norte', name: 'Ana', email, password: PASSWORD }, headers);
    expect(result).toMatchObject({ ok: true, merchantId: expect.stringMatching(/^mch_/) });
    const merchantId = result.ok ? result.merchantId! : '';
    const [user] = await db.select().from(users).where(eq(users.email, email));
    expect(user).toMatchObject({ merchantId, emailVerified: false });
    const [merchant] = await db.select().from(merchants).where(eq(merchants.id, merchantId));
    expect(merchant?.webhookSecret).toMatch(/^whsec_/);
    const [account] = await db.select().from(accounts).where(eq(accounts.userId, user!.id));
    expect(account?.password).not.toContain(PASSWORD);
    const { email: sent, token } = await lastEmail(email, 'account_verification');
    expect(sent).toMatchObject({ merchantId, planId: null, subject: 'Confirme su correo para ServicePay' });
    expect(sent!.text).toContain('/portal/verify-email?token=');
    expect(token).toBeTruthy();
    expect(await listMerchantEmails(db, merchantId)).toEqual([]);
    // No session before the address is confirmed.
    expect(await signIn({ email, password: PASSWORD }, fresh().headers)).toEqual({ ok: false, problem: 'email_not_verified' });
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

  it('answers a taken e-mail (any case) as a new one, leaves no merchant behind, and tells the owner', async () => {
    const { email } = await signedUp();
    const before = await db.$count(merchants);
    const again = await signUp(db, { merchantName: 'Otro', name: 'Eva', email: email.toUpperCase(), password: 'another pass 99' }, fresh().headers);
    expect(again).toEqual({ ok: true, merchantId: null });
    expect(await db.$count(merchants)).toBe(before);
    const { email: notice } = await lastEmail(email, 'security_notice');
    expect(notice?.subject).toBe('Intentaron crear una cuenta con su correo');
  });

  it('refuses a malformed e-mail or an empty business name', async () => {
    const { headers } = fresh();
    expect(await signUp(db, { merchantName: 'X', name: 'Ana', email: 'not-an-email', password: PASSWORD }, headers)).toEqual({ ok: false, problem: 'invalid' });
    expect(await signUp(db, { merchantName: ' ', name: 'Ana', email: 'a@example.com', password: PASSWORD }, headers)).toEqual({ ok: false, problem: 'invalid' });
  });

  it('allows 5 sign-ups a minute per client address; the 6th is refused and creates nothing', async () => {
    const headers = new Headers({ 'x-forwarded-for': '10.200.0.1' });
    for (let i = 0; i < 5; i++) expect(await signUp(db, { merchantName: 'X', name: 'Ana', email: fresh().email, password: PASSWORD }, headers)).toMatchObject({ ok: true });
    const before = await db.$count(merchants);
    const sixth = await signUp(db, { merchantName: 'X', name: 'Ana', email: fresh().email, password: PASSWORD }, headers);
    expect(sixth).toMatchObject({ ok: false, problem: 'rate_limited', retryAfterSeconds: expect.any(Number) });
    expect(await db.$count(merchants)).toBe(before);
    expect(await signUp(db, { merchantName: 'X', name: 'Ana', email: fresh().email, password: PASSWORD }, new Headers({ 'x-forwarded-for': '10.200.0.2' }))).toMatchObject({ ok: true });
  });

  it('never lets a caller choose the merchant: merchantId is not an input, and a user made outside a sign-up is refused', async () => {
    const { merchantId } = await signedUp();
    const auth = await getAuth();
    const { email } = fresh();
    const body = { name: 'Mallory', email, password: PASSWORD, merchantId } as { name: string; email: string; password: string };
    await expect(withNewUserMerchant(merchantId, () => auth.api.signUpEmail({ body }))).rejects.toThrow();
    await expect(auth.api.signUpEmail({ body: { name: 'Mallory', email, password: PASSWORD } })).rejects.toThrow();
    expect(await db.$count(users, eq(users.email, email))).toBe(0);
  });
});

describe('verifyEmail', () => {
  it('confirms the address once; a wrong or reused token changes nothing', async () => {
    const { email } = await signedUp({ verified: false });
    const { token } = await lastEmail(email, 'account_verification');
    expect(await verifyEmail(`${token}x`, new Headers())).toEqual({ ok: false, problem: 'invalid_token' });
    expect(await verifyEmail('', new Headers())).toEqual({ ok: false, problem: 'invalid_token' });
    expect((await db.select().from(users).where(eq(users.email, email)))[0]?.emailVerified).toBe(false);
    expect(await verifyEmail(token!, new Headers())).toEqual({ ok: true });
    expect((await db.select().from(users).where(eq(users.email, email)))[0]?.emailVerified).toBe(true);
    expect(await signIn({ email, password: PASSWORD }, fresh().headers)).toEqual({ ok: true, twoFactor: false });
  });

  it('refuses a token older than 24 hours', async () => {
    const { email } = await signedUp({ verified: false });
    const { token } = await lastEmail(email, 'account_verification');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 25 * 3600_000);
    expect(await verifyEmail(token!, new Headers())).toEqual({ ok: false, problem: 'expired_token' });
    vi.useRealTimers();
    expect((await db.select().from(users).where(eq(users.email, email)))[0]?.emailVerified).toBe(false);
  });

  it('sends a new link when an unverified user signs in with the right password, none with a wrong one', async () => {
    const { email } = await signedUp({ verified: false });
    const count = () => db.$count(emails, and(eq(emails.toAddress, email), eq(emails.kind, 'account_verification')));
    expect(await count()).toBe(1);
    expect(await signIn({ email, password: 'wrong password 1' }, fresh().headers)).toEqual({ ok: false, problem: 'invalid_credentials' });
    await handOffsSettled();
    expect(await count()).toBe(1);
    expect(await signIn({ email, password: PASSWORD }, fresh().headers)).toEqual({ ok: false, problem: 'email_not_verified' });
    await handOffsSettled();
    expect(await count()).toBe(2);
  });
});

describe('signIn', () => {
  it('signs in with the right password', async () => {
    const { email, headers } = await signedUp();
    expect(await signIn({ email, password: PASSWORD }, headers)).toEqual({ ok: true, twoFactor: false });
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
    // The limit is a sliding minute: six attempts that straddled a minute's end would count only in part.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Math.floor(Date.now() / 60_000) * 60_000 + 30_000);
    for (let i = 0; i < 5; i++) expect(await signIn({ email, password: `wrong ${i} password` }, headers)).toMatchObject({ ok: false, problem: 'invalid_credentials' });
    const limited = await signIn({ email, password: PASSWORD }, headers);
    expect(limited).toMatchObject({ ok: false, problem: 'rate_limited' });
    expect(limited.ok === false && limited.problem === 'rate_limited' && limited.retryAfterSeconds).toBeGreaterThan(0);
  });
});

describe('password reset', () => {
  const resetIdentifier = like(verifications.identifier, 'reset-password:%');

  it('e-mails a one-hour link; it sets a new password once and ends every session', async () => {
    const { email } = await signedUp();
    const session = await sessionCookie(email);
    expect(await requestPasswordReset({ email }, fresh().headers)).toEqual({ ok: true });
    const { email: sent, token } = await lastEmail(email, 'password_reset');
    expect(sent?.text).toContain('/portal/reset-password?token=');
    expect(await resetPassword({ token, password: 'short' })).toEqual({ ok: false, problem: 'too_short' });
    expect(await resetPassword({ token: `${token}x`, password: 'brand new pass 7' })).toEqual({ ok: false, problem: 'invalid_token' });
    expect(await resetPassword({ token, password: 'brand new pass 7' })).toEqual({ ok: true });
    expect(await currentUser(session)).toBeNull();
    expect(await signIn({ email, password: PASSWORD }, fresh().headers)).toEqual({ ok: false, problem: 'invalid_credentials' });
    expect(await signIn({ email, password: 'brand new pass 7' }, fresh().headers)).toEqual({ ok: true, twoFactor: false });
    expect(await resetPassword({ token, password: 'another new pass 8' })).toEqual({ ok: false, problem: 'invalid_token' });
    expect((await lastEmail(email, 'security_notice')).email?.subject).toBe('Su contraseña de ServicePay cambió');
  });

  it('refuses an expired link and keeps the old password', async () => {
    const { email } = await signedUp();
    await requestPasswordReset({ email }, fresh().headers);
    const { token } = await lastEmail(email, 'password_reset');
    await db.update(verifications).set({ expiresAt: new Date(Date.now() - 1000) }).where(resetIdentifier);
    expect(await resetPassword({ token, password: 'brand new pass 7' })).toEqual({ ok: false, problem: 'invalid_token' });
    expect(await signIn({ email, password: PASSWORD }, fresh().headers)).toEqual({ ok: true, twoFactor: false });
  });

  it('answers an unknown address the same way and sends nothing; a malformed one is refused; 5 a minute per address', async () => {
    const { email: unknown, headers } = fresh();
    expect(await requestPasswordReset({ email: unknown }, headers)).toEqual({ ok: true });
    expect(await db.$count(emails, eq(emails.toAddress, unknown))).toBe(0);
    expect(await requestPasswordReset({ email: 'nope' }, headers)).toEqual({ ok: false, problem: 'invalid' });
    for (let i = 0; i < 4; i++) await requestPasswordReset({ email: unknown }, fresh().headers);
    expect(await requestPasswordReset({ email: unknown }, fresh().headers)).toMatchObject({ ok: false, problem: 'rate_limited' });
  });
});

describe('changePassword', () => {
  it('needs the current password; then ends the other sessions and e-mails the user', async () => {
    const { email, merchantId } = await signedUp();
    const laptop = await sessionCookie(email);
    const phone = await sessionCookie(email);
    const user = (await currentUser(laptop))!;
    expect(user.merchantId).toBe(merchantId);
    expect(await changePassword(db, user, { current: 'wrong password 9', next: 'brand new pass 7' }, laptop)).toEqual({ ok: false, problem: 'wrong_password' });
    expect(await changePassword(db, user, { current: PASSWORD, next: 'short' }, laptop)).toEqual({ ok: false, problem: 'too_short' });
    expect(await currentUser(phone)).not.toBeNull();
    expect(await changePassword(db, user, { current: PASSWORD, next: 'brand new pass 7' }, laptop)).toEqual({ ok: true });
    expect(await currentUser(phone)).toBeNull();
    expect(await signIn({ email, password: 'brand new pass 7' }, fresh().headers)).toEqual({ ok: true, twoFactor: false });
    expect((await lastEmail(email, 'security_notice')).email?.subject).toBe('Su contraseña de ServicePay cambió');
  });

  it('allows 5 attempts a minute per user', async () => {
    const { email } = await signedUp();
    const session = await sessionCookie(email);
    const user = (await currentUser(session))!;
    let i = 0;
    const before = await attemptsBeforeRefusal(() => changePassword(db, user, { current: `wrong ${i++} password`, next: 'brand new pass 7' }, session));
    expect(before).toBeGreaterThanOrEqual(5);
    expect(before).toBeLessThanOrEqual(6);
  });
});

describe('sessions', () => {
  it('finds the user and merchant of a session cookie, and none without one', async () => {
    const { email, merchantId } = await signedUp();
    const cookie = await sessionCookie(email);
    expect(await currentUser(cookie)).toMatchObject({ email, merchantId, name: 'Ana', sessionId: expect.any(String) });
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
  it('gives an existing merchant a verified login that signs in, and refuses a weak password', async () => {
    const { merchantId } = await signedUp();
    const { email } = fresh();
    await createPortalUser({ merchantId, name: 'Demo', email, password: 'demo-Kx81pQz3' });
    const user = await currentUser(await sessionCookie(email, 'demo-Kx81pQz3'));
    expect(user).toMatchObject({ merchantId, email });
    await expect(createPortalUser({ merchantId, name: 'Demo', email: fresh().email, password: 'short' })).rejects.toThrow('too_short');
  });
});

describe('open sessions', () => {
  it('lists the user’s sessions marking this one, and ends another but never this one nor another user’s', async () => {
    const { email } = await signedUp();
    const laptop = await sessionCookie(email);
    const phone = await sessionCookie(email);
    const me = (await currentUser(laptop))!;
    const phoneUser = (await currentUser(phone))!;
    const listed = await listSessions(db, me);
    expect(listed.filter((s) => s.current).map((s) => s.id)).toEqual([me.sessionId]);
    const other = listed.find((s) => s.id === phoneUser.sessionId)!;
    expect(other.current).toBe(false);
    expect(await endSession(db, me, me.sessionId)).toBe(false);
    const stranger = (await currentUser(await sessionCookie((await signedUp()).email)))!;
    expect(await endSession(db, stranger, other.id)).toBe(false);
    expect(await currentUser(phone)).not.toBeNull();
    expect(await endSession(db, me, other.id)).toBe(true);
    expect(await currentUser(phone)).toBeNull();
    expect(await currentUser(laptop)).not.toBeNull();
  });
});
