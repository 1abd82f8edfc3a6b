import fs from 'node:fs';
import path from 'node:path';
import type { Database } from '@/db/client';
import { countMerchants } from '@/db/queries/merchants';
import { createMerchant } from './merchants';

/**
 * First start of an empty embedded database (DECISIONS 13): create a demo merchant, print its
 * credentials once and keep them beside the data, so a newcomer can call the API straight away.
 */
export async function ensureDemoMerchant(database: Database, options: { dataDir: string; appUrl: string; port: number }) {
  if (database.kind !== 'pglite' || (await countMerchants(database.db)) > 0) return;
  const created = await createMerchant(database.db, {
    name: 'Tienda Demo',
    allowedDomains: [`localhost:${options.port}`, `127.0.0.1:${options.port}`],
  });
  const file = path.join(path.dirname(path.resolve(options.dataDir)), 'demo-merchant.json');
  fs.writeFileSync(file, `${JSON.stringify(created, null, 2)}\n`, { mode: 0o600 });
  console.log(
    [
      '',
      '  ServicePay: demo merchant created (shown once; also saved in ' + path.relative(process.cwd(), file) + ')',
      `    merchantId     ${created.merchantId}`,
      `    api_key        ${created.apiKey}`,
      `    api_secret     ${created.apiSecret}`,
      `    webhookSecret  ${created.webhookSecret}`,
      '',
      '  Try it:',
      `    curl -s ${options.appUrl}/merchants/subscription-link \\`,
      `      -H "Authorization: Bearer ${created.apiKey}:${created.apiSecret}" -H "Content-Type: application/json" \\`,
      `      -d '{"customer":{"phone":"+573001234567","email":"ana@example.com"},"plan":{"externalReference":"order-1","description":"Plan mensual","amount":150000}}'`,
      '',
    ].join('\n'),
  );
}
