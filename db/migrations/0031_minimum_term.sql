-- Minimum term (docs/billing.md#minimum-term): how many periods a plan commits to, and when that
-- term ends, fixed once its first period is paid; a cancel before then takes effect then.
ALTER TABLE "subscription_plans" ADD COLUMN "minimum_periods" smallint;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "term_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_minimum_periods_check" CHECK (minimum_periods is null or (modality = 'RECURRING' and minimum_periods between 2 and 36));
