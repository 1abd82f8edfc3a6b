import { billingFunctions } from './functions/billing';
import { invoiceFunctions } from './functions/invoices';
import { retentionFunctions } from './functions/retention';
import { sendWebhookFunction } from './functions/send-webhook';
import { settlePaymentsFunction } from './functions/settle-payments';
import { sweepEmailsFunction } from './functions/sweep-emails';
import { sweepWebhooksFunction } from './functions/sweep-webhooks';

/** Every function served at /api/inngest. */
export const functions = [sendWebhookFunction, sweepWebhooksFunction, sweepEmailsFunction, settlePaymentsFunction, ...billingFunctions, ...retentionFunctions, ...invoiceFunctions];
