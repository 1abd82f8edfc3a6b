import type { Db } from '../client';
import { emails } from '../schema';

/** Writes an e-mail to send (the sweeper sends whatever is unsent: lib/email/send.ts). */
export async function insertEmail(db: Db, email: typeof emails.$inferInsert): Promise<void> {
  await db.insert(emails).values(email);
}
