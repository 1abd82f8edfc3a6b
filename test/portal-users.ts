import { eq } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { users } from '@/db/schema';
import { signUp } from '@/lib/portal/accounts';

// A portal sign-up whose e-mail is already confirmed, for tests about what a signed-in user does
// (lib/portal/accounts.test.ts covers the verification itself).

export async function signUpVerified(db: Db, input: { merchantName: string; name: string; email: string; password: string }, headers: Headers): Promise<string> {
  const result = await signUp(db, input, headers);
  if (!result.ok || !result.merchantId) throw new Error(`sign-up refused: ${JSON.stringify(result)}`);
  await db.update(users).set({ emailVerified: true }).where(eq(users.merchantId, result.merchantId));
  return result.merchantId;
}
