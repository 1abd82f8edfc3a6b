import { describe, expect, it } from 'vitest';
import { createEInvoiceProvider, dianEnvironment, providerBaseUrl } from './index';

// Which API and which DIAN environment a deployment talks to (docs/einvoicing.md#settings).

type Deployment = NonNullable<Parameters<typeof providerBaseUrl>[1]>;

const deployment = (change: Partial<Deployment> = {}): Deployment => ({
  NODE_ENV: 'production',
  SANDBOX_DEPLOYMENT: false,
  FACTUS_API_URL: undefined,
  ALEGRA_API_URL: undefined,
  ...change,
});

describe('the deployment chooses the provider URL and DIAN environment', () => {
  it('production: the providers\' production APIs, DIAN production (1)', () => {
    expect(providerBaseUrl('factus', deployment())).toBe('https://api.factus.com.co');
    expect(providerBaseUrl('alegra', deployment())).toBe('https://api.alegra.com/e-provider/col/v1');
    expect(dianEnvironment(deployment())).toBe(1);
  });

  it('a sandbox deployment, even built for production: the sandboxes, habilitación (2)', () => {
    const sandbox = deployment({ SANDBOX_DEPLOYMENT: true });
    expect(providerBaseUrl('factus', sandbox)).toBe('https://api-sandbox.factus.com.co');
    expect(providerBaseUrl('alegra', sandbox)).toBe('https://sandbox-api.alegra.com/e-provider/col/v1');
    expect(dianEnvironment(sandbox)).toBe(2);
    expect(dianEnvironment(deployment({ NODE_ENV: 'development' }))).toBe(2);
  });

  it('FACTUS_API_URL and ALEGRA_API_URL point at a double', () => {
    const local = deployment({ NODE_ENV: 'test', FACTUS_API_URL: 'http://127.0.0.1:4801', ALEGRA_API_URL: 'http://127.0.0.1:4802/e-provider/col/v1' });
    expect(providerBaseUrl('factus', local)).toBe('http://127.0.0.1:4801');
    expect(providerBaseUrl('alegra', local)).toBe('http://127.0.0.1:4802/e-provider/col/v1');
  });

  it('builds the adapter the settings name', () => {
    const factus = createEInvoiceProvider({ provider: 'factus', clientId: 'c', clientSecret: 's', username: 'u', password: 'p' }, { deployment: deployment() });
    const alegra = createEInvoiceProvider({ provider: 'alegra', token: 't', companyId: 'c' }, { deployment: deployment() });
    expect([factus.kind, factus.numbering, alegra.kind, alegra.numbering]).toEqual(['factus', 'provider', 'alegra', 'caller']);
  });
});
