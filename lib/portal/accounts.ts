import { APIError } from 'better-auth/api';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { deleteUnusedMerchant, insertMerchant } from '@/db/queries/merchants';
import { deleteUserSession, listUserSessions, merchantHasUser } from '@/db/queries/users';
import { MEMBER_ROLES, type MemberRole } from '@/db/schema';
import { clientIp } from '@/lib/api/with-checkout';
import { generateWebhookSecret } from '@/lib/auth/secrets';
import { queueAccountEmail } from '@/lib/email/account';
import { createId } from '@/lib/ids';
import { inTransaction } from '@/lib/unit-of-work';
import { accountEmails } from './account-emails';
import { getRateLimiter, type LimitBucket } from '@/lib/rate-limit';
import { getAuth, withNewUserMerchant } from './auth';
import { emailSchema, type PasswordProblem, passwordProblem } from './passwords';

// Sign-up, e-mail verification, sign-in, password reset and change, sign-out of portal users
// (docs/portal.md#accounts). Each takes the request's headers (the session cookie, the client's
// address) and answers with a problem code; the pages choose the words.

const nameSchema = z.string().trim().min(1).max(100);

const signUpSchema = z.object({
  merchantName: nameSchema,
  name: nameSchema,
  email: emailSchema,
  password: z.string(),
});

type RateLimited = { ok: false; problem: 'rate_limited'; retryAfterSeconds: number };

/** Counts one attempt against each bucket; the first refusal, or null. */
export async function overLimit(checks: [LimitBucket, string][]): Promise<RateLimited | null> {
  const limiter = getRateLimiter();
  const now = Date.now();
  for (const [bucket, identifier] of checks) {
    const result = await limiter.limit(bucket, identifier);
    if (!result.success) return { ok: false, problem: 'rate_limited', retryAfterSeconds: Math.max(1, Math.ceil((result.reset - now) / 1000)) };
  }
  return null;
}

const apiCode = (error: unknown) => (error instanceof APIError ? String(error.body?.code ?? '') : '');

/** `merchantId` is null when the address was taken (the page shows both the same way). */
type SignUpResult = { ok: true; merchantId: string | null } | { ok: false; problem: 'invalid' | PasswordProblem } | RateLimited;

/**
 * Creates the merchant and its first user, unverified: a link to confirm the address is e-mailed,
 * and the first session opens from it. An address already taken gets the same answer (its owner is
 * e-mailed instead) and leaves no merchant behind. 5 attempts a minute per client address.
 */
export async function signUp(db: Db, input: unknown, headers: Headers): Promise<SignUpResult> {
  const limited = await overLimit([['sign-up-ip', clientIp({ headers })]]);
  if (limited) return limited;
  const parsed = signUpSchema.safeParse(input);
  if (!parsed.success) return { ok: false, problem: 'invalid' };
  const { merchantName, name, email, password } = parsed.data;
  const weak = passwordProblem(password, email);
  if (weak) return { ok: false, problem: weak };

  const merchant = await insertMerchant(db, { id: createId('mch'), name: merchantName, webhookSecret: generateWebhookSecret() });
  let created = false;
  try {
    const auth = await getAuth();
    await withNewUserMerchant(merchant.id, () => auth.api.signUpEmail({ body: { name, email, password }, headers }));
  } finally {
    created = await merchantHasUser(db, merchant.id);
    if (!created) await deleteUnusedMerchant(db, merchant.id);
  }
  return { ok: true, merchantId: created ? merchant.id : null };
}

type VerifyResult = { ok: true } | { ok: false; problem: 'invalid_token' | 'expired_token' };

/** Confirms the address of a verification link and opens the user's first session (the cookie goes out through Next). */
export async function verifyEmail(token: string, headers: Headers): Promise<VerifyResult> {
  if (!token) return { ok: false, problem: 'invalid_token' };
  try {
    await (await getAuth()).api.verifyEmail({ query: { token }, headers });
    return { ok: true };
  } catch (error) {
    if (error instanceof APIError && error.statusCode < 500) return { ok: false, problem: apiCode(error) === 'TOKEN_EXPIRED' ? 'expired_token' : 'invalid_token' };
    throw error;
  }
}

/**
 * A portal user for an existing merchant, made without a request and already verified (no e-mail,
 * no session): the demo merchant's login on a first `npm run dev` (lib/portal/demo-merchant.ts).
 * Same hash and account rows as a sign-up.
 */
export async function createPortalUser(input: { merchantId: string; name: string; email: string; password: string }): Promise<void> {
  const weak = passwordProblem(input.password, input.email);
  if (weak) throw new Error(`createPortalUser: ${weak}`);
  const ctx = await (await getAuth()).$context;
  const hash = await ctx.password.hash(input.password);
  await withNewUserMerchant(input.merchantId, async () => {
    const user = await ctx.internalAdapter.createUser({ name: input.name, email: input.email.toLowerCase(), emailVerified: true }, { method: 'email-password' });
    await ctx.internalAdapter.linkAccount({ userId: user.id, providerId: 'credential', accountId: user.id, password: hash });
  });
}

type SignInResult =
  | { ok: true; twoFactor: boolean }
  | { ok: false; problem: 'invalid_credentials' | 'email_not_verified' }
  | RateLimited;

/**
 * Signs a user in. A wrong password and an unknown e-mail get the same answer. Every attempt
 * counts against the e-mail's and the address's limits, so guessing is slow either way. An
 * unverified address (right password) is sent a new link. With `twoFactor` no session is open
 * yet: better-auth's two-factor cookie waits for the code (lib/portal/two-factor.ts).
 */
export async function signIn(input: { email: unknown; password: unknown }, headers: Headers): Promise<SignInResult> {
  const email = typeof input.email === 'string' ? input.email.trim().toLowerCase() : '';
  const password = typeof input.password === 'string' ? input.password : '';
  const limited = await overLimit([
    ['sign-in-email', email],
    ['sign-in-ip', clientIp({ headers })],
  ]);
  if (limited) return limited;
  if (!emailSchema.safeParse(email).success || password.length === 0) return { ok: false, problem: 'invalid_credentials' };
  try {
    const auth = await getAuth();
    const answer = await auth.api.signInEmail({ body: { email, password }, headers });
    return { ok: true, twoFactor: 'twoFactorRedirect' in answer && answer.twoFactorRedirect === true };
  } catch (error) {
    if (apiCode(error) === 'EMAIL_NOT_VERIFIED') return { ok: false, problem: 'email_not_verified' };
    if (error instanceof APIError && error.statusCode < 500) return { ok: false, problem: 'invalid_credentials' };
    throw error;
  }
}

/** E-mails a reset link when the address has an account; the answer is the same either way. */
export async function requestPasswordReset(input: { email: unknown }, headers: Headers): Promise<{ ok: true } | { ok: false; problem: 'invalid' } | RateLimited> {
  const email = emailSchema.safeParse(input.email);
  if (!email.success) return { ok: false, problem: 'invalid' };
  const limited = await overLimit([
    ['account-email', email.data],
    ['account-email', clientIp({ headers })],
  ]);
  if (limited) return limited;
  await (await getAuth()).api.requestPasswordReset({ body: { email: email.data }, headers });
  return { ok: true };
}

/** Sets a new password from a reset link (once, within its hour); every session of the user ends. */
export async function resetPassword(input: { token: unknown; password: unknown }): Promise<{ ok: true } | { ok: false; problem: 'invalid_token' | PasswordProblem }> {
  const token = typeof input.token === 'string' ? input.token : '';
  const password = typeof input.password === 'string' ? input.password : '';
  if (!token) return { ok: false, problem: 'invalid_token' };
  const weak = passwordProblem(password, '');
  if (weak) return { ok: false, problem: weak };
  try {
    await (await getAuth()).api.resetPassword({ body: { token, newPassword: password } });
    return { ok: true };
  } catch (error) {
    if (error instanceof APIError && error.statusCode < 500) return { ok: false, problem: 'invalid_token' };
    throw error;
  }
}

/**
 * Changes the signed-in user's password, given the current one; every other session ends and the
 * user is e-mailed. 5 attempts a minute per user.
 */
export async function changePassword(
  db: Db,
  user: { userId: string; merchantId: string; email: string; name: string },
  input: { current: unknown; next: unknown },
  headers: Headers,
): Promise<{ ok: true } | { ok: false; problem: 'wrong_password' | PasswordProblem } | RateLimited> {
  const current = typeof input.current === 'string' ? input.current : '';
  const next = typeof input.next === 'string' ? input.next : '';
  const limited = await overLimit([['reauth', user.userId]]);
  if (limited) return limited;
  const weak = passwordProblem(next, user.email);
  if (weak) return { ok: false, problem: weak };
  const auth = await getAuth();
  try {
    await auth.api.changePassword({ body: { currentPassword: current, newPassword: next, revokeOtherSessions: true }, headers });
  } catch (error) {
    if (error instanceof APIError && error.statusCode < 500) return { ok: false, problem: 'wrong_password' };
    throw error;
  }
  await inTransaction(db, (tx, outbox) =>
    queueAccountEmail(tx, outbox, { merchantId: user.merchantId, kind: 'security_notice', to: user.email, email: accountEmails.passwordChanged(user.name) }),
  );
  return { ok: true };
}

export interface PortalUser {
  userId: string;
  merchantId: string;
  email: string;
  name: string;
  /** The session's id (re-authentication is recorded on it). */
  sessionId: string;
  role: MemberRole;
  twoFactorEnabled: boolean;
}

/** The signed-in user of these headers, or null (no cookie, a revoked or expired session). */
export async function currentUser(headers: Headers): Promise<PortalUser | null> {
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers });
  if (!session) return null;
  const { id, merchantId, email, name, role, twoFactorEnabled } = session.user;
  if (!merchantId) return null;
  const known = (MEMBER_ROLES as readonly unknown[]).includes(role) ? (role as MemberRole) : 'viewer';
  return { userId: id, merchantId, email, name, sessionId: session.session.id, role: known, twoFactorEnabled: twoFactorEnabled === true };
}

export async function signOut(headers: Headers): Promise<void> {
  const auth = await getAuth();
  await auth.api.signOut({ headers });
}

/** Ends every session of the user, on every device, this one included. */
export async function signOutEverywhere(headers: Headers): Promise<void> {
  const auth = await getAuth();
  await auth.api.revokeSessions({ headers });
  await auth.api.signOut({ headers }).catch(() => {});
}

/** The user's open sessions, newest last, marking this one (Ajustes → Seguridad). */
export async function listSessions(db: Db, user: PortalUser, now: Date = new Date()) {
  return (await listUserSessions(db, user.userId, now)).map((s) => ({ ...s, current: s.id === user.sessionId }));
}

/** Ends one of the user's other sessions; false for this one or another user's. */
export async function endSession(db: Db, user: PortalUser, sessionId: string): Promise<boolean> {
  if (!sessionId || sessionId === user.sessionId) return false;
  return deleteUserSession(db, user.userId, sessionId);
}
