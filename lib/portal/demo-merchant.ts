import fs from 'node:fs';
import path from 'node:path';
import type { Database, Db } from '@/db/client';
import { uniqueViolation } from '@/db/errors';
import { countMerchants, getMerchant, type MerchantRow } from '@/db/queries/merchants';
import { randomBase62 } from '@/lib/ids';
import { isProductionDeployment } from '@/lib/processors';
import { createPortalUser } from './accounts';
import { createMerchant } from '@/lib/merchants/merchants';

/** The demo merchant's reserved id: the same merchant for `npm run dev` and /demo. */
export const DEMO_MERCHANT_ID = 'mch_00000000TiendaDemo000000';
const DEMO_NAME = 'Tienda Demo';
/** The demo merchant's portal login (its password is random, printed once and kept in demo-merchant.json). */
const DEMO_PORTAL_EMAIL = 'demo@servicepay.test';

/** An empty embedded database's first start: a demo merchant whose credentials are printed once. */
export async function ensureDemoMerchant(database: Database, options: { dataDir: string; appUrl: string; port: number }) {
  if (database.kind !== 'pglite' || (await countMerchants(database.db)) > 0) return;
  const created = await createMerchant(
    database.db,
    { name: DEMO_NAME, allowedDomains: [`localhost:${options.port}`, `127.0.0.1:${options.port}`] },
    { id: DEMO_MERCHANT_ID },
  );
  // Its portal login, so what the README's calls and /demo make shows up in the portal.
  const portal = { email: DEMO_PORTAL_EMAIL, password: `clave-${randomBase62(16)}` };
  await createPortalUser({ merchantId: created.merchantId, name: DEMO_NAME, ...portal });
  const file = path.join(path.dirname(path.resolve(options.dataDir)), 'demo-merchant.json');
  fs.writeFileSync(file, `${JSON.stringify({ ...created, portal }, null, 2)}\n`, { mode: 0o600 });
  console.log(
    [
      '',
      '  ServicePay: demo merchant created (shown once; also saved in ' + path.relative(process.cwd(), file) + ')',
      `    merchantId     ${created.merchantId}`,
      `    api_key        ${created.apiKey}`,
      `    api_secret     ${created.apiSecret}`,
      `    webhookSecret  ${created.webhookSecret}`,
      '',
      `  Portal: ${options.appUrl}/portal/sign-in`,
      `    e-mail         ${portal.email}`,
      `    password       ${portal.password}`,
      '',
      '  Try it:',
      `    curl -s ${options.appUrl}/merchants/subscription-link \\`,
      `      -H "Authorization: Bearer ${created.apiKey}:${created.apiSecret}" -H "Content-Type: application/json" \\`,
      `      -d '{"customer":{"phone":"+573001234567","email":"ana@example.com"},"plan":{"externalReference":"order-1","description":"Plan mensual","amount":150000}}'`,
      `    or open ${options.appUrl}/demo to try the widget.`,
      `  Webhooks on this laptop: npm run webhooks:listen -- --forward-to http://localhost:8080/webhooks`,
      '',
    ].join('\n'),
  );
}

/** Whether /demo may run here: anywhere but a production deployment (docs/processors.md#deployments). */
export function demoAvailable(): boolean {
  return !isProductionDeployment();
}

/** The demo merchant, created on first use; its API secret is discarded. */
export async function findOrCreateDemoMerchant(db: Db): Promise<MerchantRow> {
  const existing = await getMerchant(db, DEMO_MERCHANT_ID);
  if (existing) return existing;
  try {
    await createMerchant(db, { name: DEMO_NAME, allowedDomains: [] }, { id: DEMO_MERCHANT_ID });
  } catch (error) {
    // Two first visits at once: the other one created it.
    if (uniqueViolation(error) !== 'merchants_pkey') throw error;
  }
  return (await getMerchant(db, DEMO_MERCHANT_ID))!;
}
