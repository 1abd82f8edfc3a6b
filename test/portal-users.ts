import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { type MemberRole, users } from '@/db/schema';
import { signUp } from '@/lib/portal/accounts';
import { getAuth } from '@/lib/portal/auth';

// A portal sign-up whose e-mail is already confirmed, for tests about what a signed-in user does
// (lib/portal/accounts.test.ts covers the verification itself).

export async function signUpVerified(db: Db, input: { merchantName: string; name: string; email: string; password: string }, headers: Headers): Promise<string> {
  const result = await signUp(db, input, headers);
  if (!result.ok || !result.merchantId) throw new Error(`sign-up refused: ${JSON.stringify(result)}`);
  await db.update(users).set({ emailVerified: true }).where(eq(users.merchantId, result.merchantId));
  return result.merchantId;
}

export const TEST_PASSWORD = 'correct horse 42';
let sequence = 0;

/** The session cookie a sign-in sets, as a request sends it back. */
export async function signInCookie(email: string, password = TEST_PASSWORD): Promise<string> {
  const { headers } = await (await getAuth()).api.signInEmail({ body: { email, password }, returnHeaders: true });
  return headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

/**
 * A new merchant's owner, e-mail confirmed, signed in. Sign-ups are limited per address, so each
 * call comes from its own: `10.<network>.<n>.1`, a network per test file.
 */
export async function signedInOwner(db: Db, network: number, merchantName = 'Tienda') {
  const { email, merchantId } = await signUpFrom(db, network, merchantName, 'owner');
  return { email, merchantId, cookie: await signInCookie(email) };
}

/** A signed-in member of `merchantId` with `role`: signed up on its own (as signedInOwner), then moved there before signing in. */
export async function signedInMember(db: Db, network: number, merchantId: string, role: MemberRole): Promise<Headers> {
  const { email } = await signUpFrom(db, network, 'Otra', `member-${role}`);
  await db.update(users).set({ merchantId, role }).where(eq(users.email, email));
  return new Headers({ cookie: await signInCookie(email) });
}

async function signUpFrom(db: Db, network: number, merchantName: string, prefix: string) {
  sequence += 1;
  const email = `${prefix}${network}-${sequence}-${Date.now()}@example.com`;
  const merchantId = await signUpVerified(db, { merchantName, name: 'Ana', email, password: TEST_PASSWORD }, new Headers({ 'x-forwarded-for': `10.${network}.${sequence}.1` }));
  return { email, merchantId };
}
