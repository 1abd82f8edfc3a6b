import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { nextCookies } from 'better-auth/next-js';
import { type Db, getDb } from '@/db/client';
import { accounts, sessions, users, verifications } from '@/db/schema';
import { env } from '@/lib/env';
import { PASSWORD_MAX, PASSWORD_MIN } from './passwords';

// Portal accounts with better-auth: e-mail and password, sessions behind an HttpOnly cookie. Its
// HTTP handler is not mounted: only our server actions call it (Next refuses cross-origin ones).

function buildAuth(db: Db) {
  const { APP_URL, BETTER_AUTH_SECRET } = env();
  return betterAuth({
    appName: 'ServicePay',
    baseURL: APP_URL,
    secret: BETTER_AUTH_SECRET,
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user: users, session: sessions, account: accounts, verification: verifications },
    }),
    emailAndPassword: { enabled: true, minPasswordLength: PASSWORD_MIN, maxPasswordLength: PASSWORD_MAX, autoSignIn: true },
    user: { additionalFields: { merchantId: { type: 'string', required: true, input: true } } },
    session: { expiresIn: 7 * 24 * 60 * 60, updateAge: 24 * 60 * 60 },
    // Sign-in is limited by lib/portal/accounts.ts (per e-mail and per address, Upstash-backed when
    // configured); better-auth's own limiter only guards its unmounted HTTP handler.
    rateLimit: { enabled: false },
    advanced: {
      // Secure cookies exactly when the portal is served over https (a local http run keeps working).
      useSecureCookies: APP_URL.startsWith('https://'),
      cookiePrefix: 'servicepay',
    },
    plugins: [nextCookies()],
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
