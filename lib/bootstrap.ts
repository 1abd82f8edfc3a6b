import { getDatabase } from '@/db/client';
import { assertMigrated } from '@/db/migrations-check';
import { env } from './env';
import { ensureDemoMerchant } from './portal/demo-merchant';
import { startRunners } from './runners';

/**
 * Start-up of a server process: validate the settings, open (and migrate an embedded) database,
 * wire background work to Inngest or this process (lib/runners.ts). Any failure stops it.
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
