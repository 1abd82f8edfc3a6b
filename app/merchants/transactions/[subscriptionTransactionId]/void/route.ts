// POST /merchants/transactions/{subscriptionTransactionId}/void (DECISIONS 11, extension)
import { readJson } from '@/lib/api/body';
import { withMerchant } from '@/lib/api/with-merchant';
import { voidCharge } from '@/lib/billing/void';
import { merchantProcessors } from '@/lib/payments';
import { emptyBodySchema } from '@/lib/plans/schemas';

export const POST = withMerchant<{ subscriptionTransactionId: string }>(
  async (req, { db, merchant, params }) => {
    await readJson(req, emptyBodySchema, { optional: true });
    return Response.json(
      await voidCharge(db, merchantProcessors(db), { merchantId: merchant.merchantId, transactionId: params.subscriptionTransactionId }),
    );
  },
  { limit: 'merchant' },
);
