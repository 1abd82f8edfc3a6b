-- Setup fee (docs/billing.md#setup-fee): charged once with the first payment, or at a trial's
-- start as a transaction of its own kind; each charge keeps the fee it carried for its lines.
ALTER TABLE "subscription_plans" ADD COLUMN "setup_fee" bigint;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_setup_fee_check" CHECK (setup_fee is null or setup_fee between 100 and 99999999999);--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "setup_fee" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" DROP CONSTRAINT "transactions_kind_check";--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_kind_check" CHECK (kind in ('INITIAL', 'RENEWAL', 'PRORATION', 'SETUP_FEE'));
