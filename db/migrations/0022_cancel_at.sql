-- Cancel at the end of the period (docs/billing.md#cancel-at-the-end-of-the-period): when a plan
-- that stays ACTIVE until then is cancelled, instead of renewed.
ALTER TABLE "subscription_plans" ADD COLUMN "cancel_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "subscription_plans_cancel_at_idx" ON "subscription_plans" USING btree ("cancel_at") WHERE cancel_at is not null and status in ('ACTIVE', 'TRIALING', 'PAUSED');
