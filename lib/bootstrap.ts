import { getDatabase } from '@/db/client';
import { assertMigrated } from '@/db/migrations-check';
import { env } from './env';
import { ensureDemoMerchant } from './portal/demo-merchant';
import { startRunners } from './runners';

/**
 * Start-up of a server process: validate every setting, open (and for the embedded database,
 * migrate) the database, create the demo merchant on a first embedded start. Any failure stops
 * the process with a message that says what to fix. Then the background work is wired: to Inngest,
 * or to this process's queue and timers (lib/runners.ts).
 */
export async function bootstrap(): Promise<void> {
  try {
    const settings = env();
    const database = await getDatabase();
    if (database.kind === 'postgres') await assertMigrated(database);
    await ensureDemoMerchant(database, { dataDir: settings.PGLITE_DATA_DIR, appUrl: settings.APP_URL, port: settings.PORT });
    startRunners();
  } catch (error) {
    console.error(`\nServicePay cannot start.\n${(error as Error).message}\n`);
    process.exit(1);
  }
}
