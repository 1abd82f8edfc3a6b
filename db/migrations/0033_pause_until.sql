-- Pause until a date (docs/billing.md#pause-until-a-date): when a paused plan resumes on its own.
ALTER TABLE "subscription_plans" ADD COLUMN "resumes_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "subscription_plans_resumes_at_idx" ON "subscription_plans" USING btree ("resumes_at") WHERE resumes_at is not null and status = 'PAUSED';
