// npm run merchant:create -- --name "Acme" [--webhook-url https://…] [--webhook-secret …] [--allowed-domain host …]
import { parseArgs } from 'node:util';
import { assertMigrated } from '@/db/migrations-check';
import { validationError } from '@/lib/api/errors';
import { createMerchant } from '@/lib/merchants/merchants';
import { createMerchantBodySchema } from '@/lib/merchants/schemas';
import { runCli } from './cli';

void runCli(async (database) => {
  const { values } = parseArgs({
    options: {
      name: { type: 'string' },
      'webhook-url': { type: 'string' },
      'webhook-secret': { type: 'string' },
      'allowed-domain': { type: 'string', multiple: true },
    },
  });
  const parsed = createMerchantBodySchema.safeParse({
    name: values.name,
    webhookUrl: values['webhook-url'],
    webhookSecret: values['webhook-secret'],
    allowedDomains: values['allowed-domain'],
  });
  if (!parsed.success) throw validationError(parsed.error);
  if (database.kind === 'postgres') await assertMigrated(database);
  console.log(JSON.stringify(await createMerchant(database.db, parsed.data), null, 2));
});
