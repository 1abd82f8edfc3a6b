ALTER TABLE "emails" DROP CONSTRAINT "emails_kind_check";--> statement-breakpoint
ALTER TABLE "subscription_plans" DROP CONSTRAINT "subscription_plans_status_check";--> statement-breakpoint
ALTER TABLE "webhook_events" DROP CONSTRAINT "webhook_events_type_check";--> statement-breakpoint
DROP INDEX "subscription_plans_open_reference_key";--> statement-breakpoint
DROP INDEX "subscription_plans_due_idx";--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "trial_days" smallint;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "trial_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "trial_notice_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "subscription_plans_trial_notice_idx" ON "subscription_plans" USING btree ("trial_notice_at") WHERE status = 'TRIALING' and trial_notice_at is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_plans_open_reference_key" ON "subscription_plans" USING btree ("merchant_id","external_reference") WHERE status in ('PENDING_ACTIVATION', 'TRIALING', 'ACTIVE', 'PAUSED');--> statement-breakpoint
CREATE INDEX "subscription_plans_due_idx" ON "subscription_plans" USING btree ("next_charge_date") WHERE status in ('ACTIVE', 'TRIALING') and renewal_collection = 'AUTOMATIC';--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_kind_check" CHECK (kind in ('receipt', 'renewal_failed', 'cancelled', 'renewal_due', 'price_change', 'webhook_disabled', 'late_payment', 'trial_started', 'trial_ending'));--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_trial_check" CHECK (trial_days is null or (modality = 'RECURRING' and trial_days between 1 and 365));--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_status_check" CHECK (status in ('PENDING_ACTIVATION', 'TRIALING', 'ACTIVE', 'PAUSED', 'CANCELLED', 'COMPLETED'));--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_type_check" CHECK (type in ('subscription.charge.approved', 'subscription.charge.declined', 'subscription.charge.error', 'subscription.charge.voided', 'subscription.activated', 'subscription.paused', 'subscription.resumed', 'subscription.cancelled', 'subscription.payment_method_updated', 'subscription.updated', 'subscription.renewal_due', 'subscription.trial_will_end'));