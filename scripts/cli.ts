import { type Database, openConfiguredDatabase } from '@/db/client';

/** Runs a command-line task against the configured database, with errors as plain messages. */
export async function runCli(task: (database: Database) => Promise<void>): Promise<void> {
  let database: Database | undefined;
  try {
    database = await openConfiguredDatabase();
    await task(database);
  } catch (error) {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  } finally {
    await database?.close();
  }
}
