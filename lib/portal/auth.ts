import { AsyncLocalStorage } from 'node:async_hooks';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { nextCookies } from 'better-auth/next-js';
import { twoFactor } from 'better-auth/plugins';
import { type Db, getDb } from '@/db/client';
import { accounts, type MemberRole, sessions, twoFactors, users, verifications } from '@/db/schema';
import { queueAccountEmail } from '@/lib/email/account';
import { env } from '@/lib/env';
import { inTransaction } from '@/lib/unit-of-work';
import { accountEmails } from './account-emails';
import { PASSWORD_MAX, PASSWORD_MIN } from './passwords';

// Portal accounts with better-auth (docs/portal.md#accounts): e-mail and password (scrypt), the
// address verified before the first session, password reset by e-mail, TOTP, sessions in the database
// behind an HttpOnly cookie. Its HTTP handler is not mounted: every call comes from our server
// actions. `merchantId` is not an input: a new user's merchant is set by `withNewUserMerchant`.

const newUserMerchant = new AsyncLocalStorage<{ merchantId: string; role: MemberRole }>();

/**
 * Runs `work` (a sign-up, an accepted invitation) so that the user it creates belongs to
 * `merchantId` with `role`; a user created outside it is refused.
 */
export function withNewUserMerchant<T>(merchantId: string, work: () => Promise<T>, role: MemberRole = 'owner'): Promise<T> {
  return newUserMerchant.run({ merchantId, role }, work);
}

export const VERIFICATION_TTL_SECONDS = 24 * 60 * 60;
export const RESET_TTL_SECONDS = 60 * 60;

type AccountUser = { email: string; name: string; merchantId?: unknown };

function buildAuth(db: Db) {
  const { APP_URL, BETTER_AUTH_SECRET } = env();
  const send = (user: object, email: Parameters<typeof queueAccountEmail>[2]['email'], kind: Parameters<typeof queueAccountEmail>[2]['kind']) => {
    const { merchantId, email: to } = user as AccountUser;
    return inTransaction(db, (tx, outbox) => queueAccountEmail(tx, outbox, { merchantId: String(merchantId), kind, to, email }));
  };
  const tokenLink = (page: string, token: string) => `${APP_URL}/portal/${page}?token=${encodeURIComponent(token)}`;
  return betterAuth({
    appName: 'ServicePay',
    baseURL: APP_URL,
    secret: BETTER_AUTH_SECRET,
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user: users, session: sessions, account: accounts, verification: verifications, twoFactor: twoFactors },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN,
      maxPasswordLength: PASSWORD_MAX,
      requireEmailVerification: true,
      resetPasswordTokenExpiresIn: RESET_TTL_SECONDS,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: ({ user, token }) => send(user, accountEmails.passwordReset(user.name, tokenLink('reset-password', token)), 'password_reset'),
      onPasswordReset: ({ user }) => send(user, accountEmails.passwordChanged(user.name), 'security_notice'),
      onExistingUserSignUp: ({ user }) => send(user, accountEmails.existingSignUp(user.name, `${APP_URL}/portal/forgot-password`), 'security_notice'),
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      expiresIn: VERIFICATION_TTL_SECONDS,
      sendVerificationEmail: ({ user, token }) => send(user, accountEmails.verify(user.name, tokenLink('verify-email', token)), 'account_verification'),
    },
    user: {
      additionalFields: {
        merchantId: { type: 'string', required: false, input: false },
        role: { type: 'string', required: false, input: false, defaultValue: 'owner' },
      },
    },
    session: { expiresIn: 7 * 24 * 60 * 60, updateAge: 24 * 60 * 60 },
    databaseHooks: {
      user: {
        create: {
          before: async (user) => {
            const store = newUserMerchant.getStore();
            if (!store) return false;
            return { data: { ...user, merchantId: store.merchantId, role: store.role } };
          },
        },
      },
    },
    // Sign-in and sign-up are limited by lib/portal/accounts.ts (Upstash-backed when configured);
    // better-auth's own limiter only guards its unmounted HTTP handler.
    rateLimit: { enabled: false },
    advanced: {
      // Secure cookies exactly when the portal is served over https (a local http run keeps working).
      useSecureCookies: APP_URL.startsWith('https://'),
      cookiePrefix: 'servicepay',
    },
    // TOTP (an authenticator app) with 10 single-use backup codes, both encrypted by better-auth; a
    // sign-in of an enrolled user asks the code (lib/portal/two-factor.ts).
    plugins: [twoFactor({ issuer: 'ServicePay', backupCodeOptions: { amount: 10 } }), nextCookies()],
  });
}

type PortalAuth = ReturnType<typeof buildAuth>;

// One instance per database: tests hand each file its own (setDatabase).
const instances = new WeakMap<Db, PortalAuth>();

export async function getAuth(): Promise<PortalAuth> {
  const db = await getDb();
  let auth = instances.get(db);
  if (!auth) {
    auth = buildAuth(db);
    instances.set(db, auth);
  }
  return auth;
}
