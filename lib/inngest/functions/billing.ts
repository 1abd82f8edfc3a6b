import { chargeRenewalFunction } from './charge-renewal';
import { sweepRenewals } from './sweep-renewals';

/** The recurring-billing functions, for serve() (app/api/inngest/route.ts). */
export const billingFunctions = [sweepRenewals, chargeRenewalFunction];
