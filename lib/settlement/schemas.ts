import { z } from 'zod';

export const voidedTransactionSchema = z
  .object({
    subscriptionTransactionId: z.string(),
    status: z.literal('VOIDED'),
    amount: z.number().int().describe('Cents of COP'),
    chargeDate: z.number().int().describe("Epoch milliseconds of the original charge (a void does not change it)"),
    gatewayTransactionId: z.string().nullable().describe('Processor id: hyphen-separated numeric parts'),
  })
  .meta({ id: 'VoidedTransaction' });

export type VoidedView = z.infer<typeof voidedTransactionSchema>;
