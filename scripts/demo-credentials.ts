import fs from 'node:fs';
import path from 'node:path';

/** What the first `npm run dev` saved beside the embedded database (lib/portal/demo-merchant.ts). */
export interface DemoCredentials {
  apiKey?: string;
  apiSecret?: string;
  webhookSecret?: string;
  portal?: { email: string; password: string };
}

export function demoCredentialsFile(): string {
  return path.join(path.dirname(path.resolve(process.env.PGLITE_DATA_DIR ?? '.data/pglite')), 'demo-merchant.json');
}

/** The demo merchant's credentials, or nothing when no first start wrote them here. */
export function demoCredentials(): DemoCredentials {
  const file = demoCredentialsFile();
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as DemoCredentials) : {};
}

/**
 * The merchant's API credentials named as the SDK's README names them: SERVICEPAY_API_KEY (pk_…)
 * and SERVICEPAY_API_SECRET (sk_…) in the environment, else the demo merchant's.
 */
export function apiCredentials(): { apiKey?: string; apiSecret?: string } {
  const demo = demoCredentials();
  return { apiKey: process.env.SERVICEPAY_API_KEY ?? demo.apiKey, apiSecret: process.env.SERVICEPAY_API_SECRET ?? demo.apiSecret };
}
