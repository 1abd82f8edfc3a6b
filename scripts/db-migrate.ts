// npm run db:migrate: applies db/migrations to DATABASE_URL (or the embedded database).
import { migratePostgresDatabase } from '@/db/client';
import { runCli } from './cli';

void runCli(async (database) => {
  // The embedded database migrates itself when it opens.
  if (database.kind === 'postgres') await migratePostgresDatabase(database);
  console.log(`migrations applied (${database.kind})`);
});
