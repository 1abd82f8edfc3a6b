ALTER TABLE "subscription_plans" ADD COLUMN "interval_unit" text;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "interval_count" smallint;--> statement-breakpoint
-- Every plan so far was monthly (interval 'MONTHLY') or SINGLE (null): carried over before the old column goes.
UPDATE "subscription_plans" SET "interval_unit" = 'month', "interval_count" = 1 WHERE "modality" = 'RECURRING';--> statement-breakpoint
ALTER TABLE "subscription_plans" DROP COLUMN "interval";--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_interval_check" CHECK ((modality = 'SINGLE' and interval_unit is null and interval_count is null) or (modality = 'RECURRING' and (
        (interval_unit = 'week' and interval_count between 1 and 52) or
        (interval_unit = 'month' and interval_count between 1 and 12) or
        (interval_unit = 'year' and interval_count between 1 and 3))));