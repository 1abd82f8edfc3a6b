import type { Db } from '@/db/client';
import { listRecentEmails } from '@/db/queries/emails';
import { devPagesServed } from '@/lib/env';

// The /dev/emails page's data (docs/customers.md#e-mails): the latest customer e-mails this
// machine made, in development only.

/** The newest e-mails, or null where the /dev pages are not served (a built server). */
export async function loadDevEmailsPage(db: Db) {
  if (!devPagesServed()) return null;
  return { emails: await listRecentEmails(db) };
}
