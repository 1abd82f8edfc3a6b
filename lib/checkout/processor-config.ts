import type { CheckoutProcessor, PaymentMethodChoice, PseBank } from '@/lib/checkout/processor-types';
import type { Db } from '@/db/client';
import { getMerchant } from '@/db/queries/merchants';
import { env } from '@/lib/env';
import { errorFields, log } from '@/lib/log';
import { processorOfMerchant, wompiKeysOf } from '@/lib/processors';
import { SANDBOX_PSE_INSTITUTIONS } from '@/lib/processors/sandbox';
import { createWompiClient, wompiBaseUrl } from '@/lib/processors/wompi/client';

// What the hosted page needs of the merchant's processor (docs/checkout.md): the sandbox or Wompi's
// public key and consent documents, the methods the link allows and, for PSE, the banks.

export type CheckoutProcessorConfig =
  | { kind: 'ready'; processor: CheckoutProcessor; methods: PaymentMethodChoice[]; pseBanks: PseBank[] }
  /** Production without Wompi keys: the page is `unavailable`. */
  | { kind: 'none' }
  /** Wompi did not answer: nothing can be paid right now. */
  | { kind: 'down' };

/** `pse: false` where only a method for renewals is saved (the manage page): no PSE, no bank list. */
export async function checkoutProcessorConfig(db: Db, merchantId: string, { pse = true }: { pse?: boolean } = {}): Promise<CheckoutProcessorConfig> {
  const merchant = await getMerchant(db, merchantId);
  const processor = merchant ? processorOfMerchant(merchant) : null;
  if (!merchant || !processor) return { kind: 'none' };
  const methods: PaymentMethodChoice[] = pse ? ['CARD', 'NEQUI', 'PSE'] : ['CARD', 'NEQUI'];
  if (processor.kind === 'sandbox') {
    return { kind: 'ready', processor: { type: 'sandbox' }, methods, pseBanks: pse ? SANDBOX_PSE_INSTITUTIONS : [] };
  }
  const keys = wompiKeysOf(merchant)!;
  const apiUrl = wompiBaseUrl(keys.publicKey, env().WOMPI_API_URL);
  try {
    const client = createWompiClient({ baseUrl: apiUrl, publicKey: keys.publicKey, timeoutMs: 5000 });
    const [acceptance, banks] = await Promise.all([
      client.merchant(),
      // A bank list that fails leaves PSE showing why; cards and Nequi still work.
      pse ? processor.pseInstitutions().catch(() => []) : Promise.resolve([]),
    ]);
    return {
      kind: 'ready',
      processor: {
        type: 'wompi',
        publicKey: keys.publicKey,
        apiUrl,
        consent: {
          // The documents only: the page fetches a fresh pair of single-use tokens for each attempt.
          endUserPolicy: { url: acceptance.presigned_acceptance.permalink },
          personalData: { url: acceptance.presigned_personal_data_auth.permalink },
        },
      },
      methods,
      pseBanks: banks,
    };
  } catch (error) {
    log.error('Wompi did not answer for the checkout page', { merchantId, ...errorFields(error) });
    return { kind: 'down' };
  }
}
