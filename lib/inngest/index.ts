import { billingFunctions } from './functions/billing';
import { sendWebhookFunction } from './functions/send-webhook';
import { sweepWebhooksFunction } from './functions/sweep-webhooks';

/** Every function served at /api/inngest. */
export const functions = [sendWebhookFunction, sweepWebhooksFunction, ...billingFunctions];
