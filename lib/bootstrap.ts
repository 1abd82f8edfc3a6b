import { getDatabase } from '@/db/client';
import { assertMigrated } from '@/db/migrations-check';
import { startRenewalTimer } from './billing/timer';
import { env } from './env';
import { inngestConfigured } from './inngest/client';
import { ensureDemoMerchant } from './merchants/demo';
import { startWebhookSweeper } from './webhooks/runtime';

/**
 * Start-up of a server process: validate every setting, open (and for the embedded database,
 * migrate) the database, create the demo merchant on a first embedded start. Any failure stops
 * the process with a message that says what to fix. Without Inngest, the webhook sweeper and the
 * renewal sweep run on timers in this process (DECISIONS 13).
 */
export async function bootstrap(): Promise<void> {
  try {
    const settings = env();
    const database = await getDatabase();
    if (database.kind === 'postgres') await assertMigrated(database);
    await ensureDemoMerchant(database, { dataDir: settings.PGLITE_DATA_DIR, appUrl: settings.APP_URL, port: settings.PORT });
    if (!inngestConfigured()) {
      // With Inngest its cron functions sweep; without it, this process does (DECISIONS 13).
      startWebhookSweeper();
      startRenewalTimer();
    }
  } catch (error) {
    console.error(`\nServicePay cannot start.\n${(error as Error).message}\n`);
    process.exit(1);
  }
}
