import type { Db } from '@/db/client';
import { recordSavedMethod } from '@/db/queries/transactions';
import { env } from '@/lib/env';
import type { PaymentProcessor } from '@/lib/processors';
import type { Consent, PaymentInstrument } from '@/lib/processors/processor';
import { type OpenedCharge, sendCharge } from './attempt';

// The processor call of a payment made with what the payer gives now: a plan's first payment or a
// renewal link's period. `token` is the page a payer back from the bank returns to.

export async function sendPayerPayment(
  db: Db,
  processor: PaymentProcessor,
  opened: OpenedCharge,
  payment: { instrument: PaymentInstrument; consent?: Consent },
  now: Date,
  token: string = opened.plan.checkoutToken,
) {
  const { plan } = opened;
  return sendCharge(
    db,
    processor,
    opened,
    (txn) =>
      processor.pay({
        amount: txn.amount,
        currency: 'COP',
        reference: txn.id,
        customerEmail: plan.customerEmail,
        instrument: payment.instrument,
        // PSE cannot be charged without the payer: renewed by link.
        saveForRenewals: plan.modality === 'RECURRING' && payment.instrument.type !== 'PSE',
        consent: payment.consent,
        // Recorded before the charge: a charge whose reply is lost still renews on it.
        onMethodSaved: (paymentMethodToken) => recordSavedMethod(db, txn.id, paymentMethodToken),
        description: plan.description,
        redirectUrl: `${env().APP_URL}/pay/${token}?payment=${txn.id}`,
      }),
    { now, savedMethod: (result) => result.paymentMethodToken },
  );
}
