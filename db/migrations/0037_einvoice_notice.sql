-- E-mails about e-invoicing: to the merchant's owners (docs/einvoicing.md#notices), an invoice that
-- could not be issued in 72 hours or a numbering range nearly used or about to expire; to the
-- customer, an invoice issued after its receipt went without it.
ALTER TABLE "emails" DROP CONSTRAINT "emails_kind_check";--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_kind_check" CHECK (kind in ('receipt', 'renewal_failed', 'cancelled', 'renewal_due', 'price_change', 'webhook_disabled', 'late_payment', 'trial_started', 'trial_ending', 'account_verification', 'password_reset', 'security_notice', 'member_invitation', 'einvoice_notice', 'invoice'));
