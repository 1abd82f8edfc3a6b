CREATE TABLE "renewal_links" (
	"id" text PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"plan_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"period" timestamp with time zone NOT NULL,
	"amount" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'OPEN' NOT NULL,
	"source" text NOT NULL,
	"reminders_sent" smallint DEFAULT 0 NOT NULL,
	"next_step_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "renewal_links_status_check" CHECK (status in ('OPEN', 'PAID', 'EXPIRED', 'CANCELLED', 'SUPERSEDED')),
	CONSTRAINT "renewal_links_source_check" CHECK (source in ('reminder', 'ladder')),
	CONSTRAINT "renewal_links_amount_check" CHECK (amount between 100 and 99999999999),
	CONSTRAINT "renewal_links_open_step_check" CHECK (status <> 'OPEN' or next_step_at is not null)
);
--> statement-breakpoint
ALTER TABLE "emails" DROP CONSTRAINT "emails_kind_check";--> statement-breakpoint
ALTER TABLE "webhook_events" DROP CONSTRAINT "webhook_events_type_check";--> statement-breakpoint
DROP INDEX "subscription_plans_due_idx";--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "reminder_days" smallint DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "grace_days" smallint DEFAULT 5 NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "renewal_ladder" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "renewal_collection" text DEFAULT 'AUTOMATIC' NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "renewal_link_id" text;--> statement-breakpoint
ALTER TABLE "renewal_links" ADD CONSTRAINT "renewal_links_plan_id_subscription_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."subscription_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewal_links" ADD CONSTRAINT "renewal_links_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "renewal_links_token_key" ON "renewal_links" USING btree ("token");--> statement-breakpoint
CREATE UNIQUE INDEX "renewal_links_plan_period_key" ON "renewal_links" USING btree ("plan_id","period");--> statement-breakpoint
CREATE UNIQUE INDEX "renewal_links_one_open_per_plan" ON "renewal_links" USING btree ("plan_id") WHERE status = 'OPEN';--> statement-breakpoint
CREATE INDEX "renewal_links_next_step_idx" ON "renewal_links" USING btree ("next_step_at") WHERE status = 'OPEN';--> statement-breakpoint
CREATE INDEX "renewal_links_merchant_open_idx" ON "renewal_links" USING btree ("merchant_id","expires_at") WHERE status = 'OPEN';--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_renewal_link_id_renewal_links_id_fk" FOREIGN KEY ("renewal_link_id") REFERENCES "public"."renewal_links"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subscription_plans_link_due_idx" ON "subscription_plans" USING btree ("next_charge_date") WHERE status = 'ACTIVE' and renewal_collection = 'LINK';--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_one_renewal_link_approval" ON "transactions" USING btree ("renewal_link_id") WHERE renewal_link_id is not null and status in ('APPROVED', 'VOIDED');--> statement-breakpoint
CREATE INDEX "subscription_plans_due_idx" ON "subscription_plans" USING btree ("next_charge_date") WHERE status = 'ACTIVE' and renewal_collection = 'AUTOMATIC';--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_kind_check" CHECK (kind in ('receipt', 'renewal_failed', 'cancelled', 'renewal_due'));--> statement-breakpoint
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_reminder_days_check" CHECK (reminder_days between 1 and 10);--> statement-breakpoint
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_grace_days_check" CHECK (grace_days between 0 and 15);--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_renewal_collection_check" CHECK (renewal_collection in ('AUTOMATIC', 'LINK'));--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_type_check" CHECK (type in ('subscription.charge.approved', 'subscription.charge.declined', 'subscription.charge.error', 'subscription.charge.voided', 'subscription.activated', 'subscription.paused', 'subscription.resumed', 'subscription.cancelled', 'subscription.payment_method_updated', 'subscription.renewal_due'));