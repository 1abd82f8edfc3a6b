import { getDatabase } from '@/db/client';
import { assertMigrated } from '@/db/migrations-check';
import { startRenewalTimer } from './billing/timer';
import { env } from './env';
import { inngestConfigured } from './inngest/client';
import { ensureDemoMerchant } from './merchants/demo';

/**
 * Start-up of a server process: validate every setting, open (and for the embedded database,
 * migrate) the database, create the demo merchant on a first embedded start, and start the
 * in-process renewal sweep when Inngest is not configured. Any failure stops
 * the process with a message that says what to fix.
 */
export async function bootstrap(): Promise<void> {
  try {
    const settings = env();
    const database = await getDatabase();
    if (database.kind === 'postgres') await assertMigrated(database);
    await ensureDemoMerchant(database, { dataDir: settings.PGLITE_DATA_DIR, appUrl: settings.APP_URL, port: settings.PORT });
    // With Inngest the cron function sweeps; without it, this process does (DECISIONS 13).
    if (!inngestConfigured()) startRenewalTimer();
  } catch (error) {
    console.error(`\nServicePay cannot start.\n${(error as Error).message}\n`);
    process.exit(1);
  }
}
