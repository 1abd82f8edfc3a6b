-- Test clocks per merchant (docs/billing.md#test-clocks): one row per merchant whose clock was moved.
CREATE TABLE "test_clocks" (
	"merchant_id" text PRIMARY KEY NOT NULL,
	"frozen_at" timestamp with time zone NOT NULL,
	"advancing_until" timestamp with time zone,
	"last_advance" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "test_clocks" ADD CONSTRAINT "test_clocks_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The portal's e-mail log of a sandbox merchant, newest first.
CREATE INDEX "emails_merchant_idx" ON "emails" USING btree ("merchant_id","id");--> statement-breakpoint
-- API version 2026-11-28 (docs/api.md#versioning): listed webhook events carry nextRetryAt.
ALTER TABLE "merchants" ALTER COLUMN "api_version" SET DEFAULT '2026-11-28';--> statement-breakpoint
ALTER TABLE "merchants" DROP CONSTRAINT "merchants_api_version_check";--> statement-breakpoint
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_api_version_check" CHECK (api_version in ('2026-11-20', '2026-11-26', '2026-11-28'));
