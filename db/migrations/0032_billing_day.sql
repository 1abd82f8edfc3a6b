-- Billing day (docs/billing.md#billing-day): the day of the month renewals of a monthly or yearly
-- plan fall on; the first charge is prorated to it.
ALTER TABLE "subscription_plans" ADD COLUMN "billing_day" smallint;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_billing_day_check" CHECK (billing_day is null or (interval_unit in ('month', 'year') and billing_day between 1 and 28));
