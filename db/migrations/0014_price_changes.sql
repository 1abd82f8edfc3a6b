ALTER TABLE "emails" DROP CONSTRAINT "emails_kind_check";--> statement-breakpoint
ALTER TABLE "transactions" DROP CONSTRAINT "transactions_kind_check";--> statement-breakpoint
ALTER TABLE "webhook_events" DROP CONSTRAINT "webhook_events_type_check";--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "scheduled_amount" bigint;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "scheduled_description" text;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "scheduled_from" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_kind_check" CHECK (kind in ('receipt', 'renewal_failed', 'cancelled', 'renewal_due', 'price_change'));--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_scheduled_check" CHECK ((scheduled_amount is null and scheduled_from is null and scheduled_description is null) or (scheduled_amount between 100 and 99999999999 and scheduled_from is not null));--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_kind_check" CHECK (kind in ('INITIAL', 'RENEWAL', 'PRORATION'));--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_type_check" CHECK (type in ('subscription.charge.approved', 'subscription.charge.declined', 'subscription.charge.error', 'subscription.charge.voided', 'subscription.activated', 'subscription.paused', 'subscription.resumed', 'subscription.cancelled', 'subscription.payment_method_updated', 'subscription.updated', 'subscription.renewal_due'));