// The id of every Inngest function served at /api/inngest (registered as `servicepay-<id>`),
// declared once. No imports: the browser journeys read it too.

export const INNGEST_APP_ID = 'servicepay';

export const INNGEST_FUNCTION_IDS = {
  sendWebhook: 'send-webhook',
  sweepWebhooks: 'sweep-webhooks',
  sweepEmails: 'sweep-emails',
  settlePayments: 'settle-payments',
  sweepRenewals: 'sweep-renewals',
  chargeRenewal: 'charge-renewal',
  deleteExpiredIdempotencyKeys: 'delete-expired-idempotency-keys',
  deleteOldWebhookEvents: 'delete-old-webhook-events',
  deleteOldEmails: 'delete-old-emails',
  deleteOldManageLinks: 'delete-old-manage-links',
  deleteOldAuditEntries: 'delete-old-audit-entries',
  issueInvoice: 'issue-invoice',
  sweepInvoices: 'sweep-invoices',
  compactOverview: 'compact-overview',
} as const;

/** The id Inngest knows a function by. */
export const registeredFunctionId = (id: (typeof INNGEST_FUNCTION_IDS)[keyof typeof INNGEST_FUNCTION_IDS]) => `${INNGEST_APP_ID}-${id}`;

/** Every function's registered id, sorted. */
export const REGISTERED_FUNCTION_IDS = Object.values(INNGEST_FUNCTION_IDS).map(registeredFunctionId).sort();
