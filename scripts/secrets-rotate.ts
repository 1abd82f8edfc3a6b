// npm run secrets:rotate [-- --batch-size N]: re-seals every merchant's sealed secrets under the
// newest of SECRETS_ENCRYPTION_KEYS (docs/operations.md#secrets-at-rest).
import { parseArgs } from 'node:util';
import { assertMigrated } from '@/db/migrations-check';
import { rotateSealedSecrets } from '@/lib/merchants/secrets-rotation';
import { runCli } from './cli';

void runCli(async (database) => {
  const { values } = parseArgs({ options: { 'batch-size': { type: 'string', default: '100' } } });
  const batchSize = Number(values['batch-size']);
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new Error('--batch-size: expected a whole number of 1 or more');
  if (database.kind === 'postgres') await assertMigrated(database);
  console.log(JSON.stringify(await rotateSealedSecrets(database.db, { batchSize })));
});
