import { APIError } from 'better-auth/api';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { deleteUnusedMerchant, insertMerchant } from '@/db/queries/merchants';
import { clientIp } from '@/lib/api/with-checkout';
import { generateWebhookSecret } from '@/lib/auth/secrets';
import { createId } from '@/lib/ids';
import { getRateLimiter } from '@/lib/rate-limit';
import { getAuth } from './auth';
import { emailSchema, type PasswordProblem, passwordProblem } from './passwords';

// Sign-up, sign-in and sign-out of portal users. Each takes the request's headers (the session
// cookie, the client's address) and answers with a problem code; the pages choose the words.

const nameSchema = z.string().trim().min(1).max(100);

const signUpSchema = z.object({
  merchantName: nameSchema,
  name: nameSchema,
  email: emailSchema,
  password: z.string(),
});

type SignUpResult = { ok: true; merchantId: string } | { ok: false; problem: 'invalid' | 'email_taken' | PasswordProblem };

/** Creates the merchant and its first user, and signs the user in (the cookie goes out through Next). */
export async function signUp(db: Db, input: unknown, headers: Headers): Promise<SignUpResult> {
  const parsed = signUpSchema.safeParse(input);
  if (!parsed.success) return { ok: false, problem: 'invalid' };
  const { merchantName, name, email, password } = parsed.data;
  const weak = passwordProblem(password, email);
  if (weak) return { ok: false, problem: weak };

  const merchant = await insertMerchant(db, { id: createId('mch'), name: merchantName, webhookSecret: generateWebhookSecret() });
  try {
    const auth = await getAuth();
    await auth.api.signUpEmail({ body: { name, email, password, merchantId: merchant.id }, headers });
    return { ok: true, merchantId: merchant.id };
  } catch (error) {
    await deleteUnusedMerchant(db, merchant.id);
    if (error instanceof APIError && String(error.body?.code).startsWith('USER_ALREADY_EXISTS')) {
      return { ok: false, problem: 'email_taken' };
    }
    throw error;
  }
}

/** A portal user for an existing merchant without a request (the demo merchant's login). */
export async function createPortalUser(input: { merchantId: string; name: string; email: string; password: string }): Promise<void> {
  const weak = passwordProblem(input.password, input.email);
  if (weak) throw new Error(`createPortalUser: ${weak}`);
  // The sign-up's own path (its session is returned here and dropped: nobody holds its cookie).
  await (await getAuth()).api.signUpEmail({ body: { name: input.name, email: input.email, password: input.password, merchantId: input.merchantId } });
}

type SignInResult = { ok: true } | { ok: false; problem: 'invalid_credentials' } | { ok: false; problem: 'rate_limited'; retryAfterSeconds: number };

/** Signs a user in; a wrong password and an unknown e-mail get the same answer, and both count against the limits. */
export async function signIn(input: { email: unknown; password: unknown }, headers: Headers): Promise<SignInResult> {
  const email = typeof input.email === 'string' ? input.email.trim().toLowerCase() : '';
  const password = typeof input.password === 'string' ? input.password : '';
  const limiter = getRateLimiter();
  const now = Date.now();
  for (const [bucket, identifier] of [['sign-in-email', email], ['sign-in-ip', clientIp({ headers })]] as const) {
    const result = await limiter.limit(bucket, identifier);
    if (!result.success) return { ok: false, problem: 'rate_limited', retryAfterSeconds: Math.max(1, Math.ceil((result.reset - now) / 1000)) };
  }
  if (!emailSchema.safeParse(email).success || password.length === 0) return { ok: false, problem: 'invalid_credentials' };
  try {
    const auth = await getAuth();
    await auth.api.signInEmail({ body: { email, password }, headers });
    return { ok: true };
  } catch (error) {
    if (error instanceof APIError && error.statusCode < 500) return { ok: false, problem: 'invalid_credentials' };
    throw error;
  }
}

export interface PortalUser {
  userId: string;
  merchantId: string;
  email: string;
  name: string;
}

/** The signed-in user of these headers, or null (no cookie, a revoked or expired session). */
export async function currentUser(headers: Headers): Promise<PortalUser | null> {
  const auth = await getAuth();
  const session = await auth.api.getSession({ headers });
  if (!session) return null;
  const { id, merchantId, email, name } = session.user;
  return { userId: id, merchantId, email, name };
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
