import { type Db, getDb } from '@/db/client';
import { compactOverviewPieces } from '@/lib/portal/overview';
import { deleteExpiredIdempotencyKeys, deleteOldAuditEntries, deleteOldEmails, deleteOldManageLinks, deleteOldWebhookEvents } from '@/lib/retention';
import { inngest } from '../client';
import { INNGEST_FUNCTION_IDS } from '../function-ids';

// Retention as scheduled jobs of their own (docs/operations.md#scheduled-jobs), apart from the
// renewal sweep: a slow deletion never delays a charge.

/** A retention job: `deletion` on its cron, once at a time, retried once; answers how many rows went. */
const retentionFunction = (id: string, cron: string, deletion: (db: Db) => Promise<number>) =>
  inngest.createFunction({ id, retries: 1, concurrency: 1, triggers: [{ cron }] }, async ({ step }) => ({
    deleted: await step.run('delete', async () => deletion(await getDb())),
  }));

export const deleteExpiredIdempotencyKeysFunction = retentionFunction(INNGEST_FUNCTION_IDS.deleteExpiredIdempotencyKeys, '17 * * * *', deleteExpiredIdempotencyKeys);
export const deleteOldWebhookEventsFunction = retentionFunction(INNGEST_FUNCTION_IDS.deleteOldWebhookEvents, '43 3 * * *', deleteOldWebhookEvents);
export const deleteOldEmailsFunction = retentionFunction(INNGEST_FUNCTION_IDS.deleteOldEmails, '47 3 * * *', deleteOldEmails);
export const deleteOldManageLinksFunction = retentionFunction(INNGEST_FUNCTION_IDS.deleteOldManageLinks, '51 3 * * *', deleteOldManageLinks);
export const deleteOldAuditEntriesFunction = retentionFunction(INNGEST_FUNCTION_IDS.deleteOldAuditEntries, '55 3 * * *', deleteOldAuditEntries);

/** Not a deletion but the same shape: the Overview's pieces folded every minute (db/queries/overview.ts). */
export const compactOverviewFunction = retentionFunction(INNGEST_FUNCTION_IDS.compactOverview, '* * * * *', compactOverviewPieces);

export const retentionFunctions = [
  compactOverviewFunction,
  deleteExpiredIdempotencyKeysFunction,
  deleteOldWebhookEventsFunction,
  deleteOldEmailsFunction,
  deleteOldManageLinksFunction,
  deleteOldAuditEntriesFunction,
];
