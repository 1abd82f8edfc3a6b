import { env } from '@/lib/env';
import { ALEGRA_PRODUCTION_URL, ALEGRA_SANDBOX_URL, createAlegraProvider, type AlegraCredentials } from './alegra';
import type { DianEnvironment } from './cufe';
import { createFactusProvider, FACTUS_PRODUCTION_URL, FACTUS_SANDBOX_URL, type FactusCredentials } from './factus';
import type { CallOptions } from './http';
import type { EInvoiceProvider } from './provider';

// A merchant's provider: production APIs and DIAN profile 1 in production, sandboxes and habilitación (2) elsewhere.

export type ProviderSettings = ({ provider: 'factus' } & FactusCredentials) | ({ provider: 'alegra' } & AlegraCredentials);

type Deployment = Pick<ReturnType<typeof env>, 'NODE_ENV' | 'SANDBOX_DEPLOYMENT' | 'FACTUS_API_URL' | 'ALEGRA_API_URL'> & { EINVOICE_CALL_TIMEOUT_MS?: number };

const isProduction = (settings: Deployment) => settings.NODE_ENV === 'production' && !settings.SANDBOX_DEPLOYMENT;

export function dianEnvironment(settings: Deployment = env()): DianEnvironment {
  return isProduction(settings) ? 1 : 2;
}

export function providerBaseUrl(provider: 'factus' | 'alegra', settings: Deployment = env()): string {
  const production = isProduction(settings);
  if (provider === 'factus') return settings.FACTUS_API_URL ?? (production ? FACTUS_PRODUCTION_URL : FACTUS_SANDBOX_URL);
  return settings.ALEGRA_API_URL ?? (production ? ALEGRA_PRODUCTION_URL : ALEGRA_SANDBOX_URL);
}

export function createEInvoiceProvider(settings: ProviderSettings, options: CallOptions & { deployment?: Deployment } = {}): EInvoiceProvider {
  const deployment = options.deployment ?? env();
  const common = { timeoutMs: deployment.EINVOICE_CALL_TIMEOUT_MS, ...options, environment: dianEnvironment(deployment) };
  if (settings.provider === 'factus') {
    const { clientId, clientSecret, username, password, numberingRangeId } = settings;
    return createFactusProvider({ ...common, baseUrl: providerBaseUrl('factus', deployment), credentials: { clientId, clientSecret, username, password, numberingRangeId } });
  }
  const { token, companyId } = settings;
  return createAlegraProvider({ ...common, baseUrl: providerBaseUrl('alegra', deployment), credentials: { token, companyId } });
}
