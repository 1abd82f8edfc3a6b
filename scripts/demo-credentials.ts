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
