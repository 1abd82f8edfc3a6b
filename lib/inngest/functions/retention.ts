import { getDb } from '@/db/client';
import { deleteExpiredIdempotencyKeys, deleteOldEmails, deleteOldManageLinks, deleteOldWebhookEvents } from '@/lib/retention';
import { inngest } from '../client';

// Retention as scheduled jobs of their own (docs/operations.md#scheduled-jobs), apart from the
// renewal sweep: a slow deletion never delays a charge.

export const deleteExpiredIdempotencyKeysFunction = inngest.createFunction(
  { id: 'delete-expired-idempotency-keys', retries: 1, concurrency: 1, triggers: [{ cron: '17 * * * *' }] },
  async ({ step }) => ({ deleted: await step.run('delete', async () => deleteExpiredIdempotencyKeys(await getDb())) }),
);

export const deleteOldWebhookEventsFunction = inngest.createFunction(
  { id: 'delete-old-webhook-events', retries: 1, concurrency: 1, triggers: [{ cron: '43 3 * * *' }] },
  async ({ step }) => ({ deleted: await step.run('delete', async () => deleteOldWebhookEvents(await getDb())) }),
);

export const deleteOldEmailsFunction = inngest.createFunction(
  { id: 'delete-old-emails', retries: 1, concurrency: 1, triggers: [{ cron: '47 3 * * *' }] },
  async ({ step }) => ({ deleted: await step.run('delete', async () => deleteOldEmails(await getDb())) }),
);

export const deleteOldManageLinksFunction = inngest.createFunction(
  { id: 'delete-old-manage-links', retries: 1, concurrency: 1, triggers: [{ cron: '51 3 * * *' }] },
  async ({ step }) => ({ deleted: await step.run('delete', async () => deleteOldManageLinks(await getDb())) }),
);

export const retentionFunctions = [
  deleteExpiredIdempotencyKeysFunction,
  deleteOldWebhookEventsFunction,
  deleteOldEmailsFunction,
  deleteOldManageLinksFunction,
];
