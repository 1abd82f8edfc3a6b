-- Metered usage (docs/billing.md#metered-usage): the plan's unit price and included units, the
-- merchant's reports (idempotent by key per plan), and what each renewal billed for them.
ALTER TABLE "subscription_plans" ADD COLUMN "usage_unit_amount" bigint;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "usage_included_units" bigint;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "usage_units" bigint;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "usage_amount" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE TABLE "usage_reports" (
	"id" text PRIMARY KEY NOT NULL,
	"plan_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"quantity" bigint NOT NULL,
	"reported_at" timestamp with time zone NOT NULL,
	"period_due" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_reports_quantity_check" CHECK (quantity > 0)
);--> statement-breakpoint
ALTER TABLE "usage_reports" ADD CONSTRAINT "usage_reports_plan_id_subscription_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."subscription_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_reports" ADD CONSTRAINT "usage_reports_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "usage_reports_plan_key" ON "usage_reports" USING btree ("plan_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "usage_reports_open_idx" ON "usage_reports" USING btree ("plan_id") WHERE period_due is null;
