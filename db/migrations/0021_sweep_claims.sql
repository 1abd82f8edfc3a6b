ALTER TABLE "subscription_plans" ADD COLUMN "sweep_claim" text;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "sweep_lease_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "subscription_plans_sweep_claim_idx" ON "subscription_plans" USING btree ("sweep_claim") WHERE sweep_claim is not null;
