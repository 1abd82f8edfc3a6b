import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { EInvoiceProvider } from '@/lib/einvoicing/provider';

// An e-invoicing adapter's test file against its provider's double (test/factus-double.ts,
// test/alegra-double.ts): one double for the file, a fresh account and provider for each test.

interface ProviderDouble {
  clearFaults(): void;
  close(): Promise<void> | void;
}

/** Starts the double for the file; before each test clears its faults and opens an account with a provider for it. */
export function withProviderDouble<D extends ProviderDouble, A>(start: () => Promise<D>, accountOn: (double: D) => A, providerFor: (account: A) => EInvoiceProvider) {
  const live = {} as { double: D; account: A; provider: EInvoiceProvider };
  beforeAll(async () => {
    live.double = await start();
  });
  afterAll(() => live.double.close());
  beforeEach(() => {
    live.double.clearFaults();
    live.account = accountOn(live.double);
    live.provider = providerFor(live.account);
  });
  return live;
}
