-- A plan's own IVA rate for its electronic invoices (docs/einvoicing.md#settings), when it is not the merchant's.
ALTER TABLE "subscription_plans" ADD COLUMN "iva" text;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_iva_check" CHECK (iva is null or iva in ('19', '5', '0', 'excluded'));
