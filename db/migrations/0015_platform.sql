-- API versions, opt-in webhook retries (docs/api.md#versioning, docs/webhooks.md#retries).
-- Merchants created before versions existed are pinned to the contract as first published; later
-- ones to the version current when they are created (the column default).
ALTER TABLE "merchants" ADD COLUMN "api_version" text DEFAULT '2026-11-20' NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ALTER COLUMN "api_version" SET DEFAULT '2026-11-26';--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "webhook_retries" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "webhook_failing_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "webhook_disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "next_retry_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "webhook_events_retry_due_idx" ON "webhook_events" USING btree ("next_retry_at") WHERE next_retry_at is not null;--> statement-breakpoint
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_api_version_check" CHECK (api_version in ('2026-11-20', '2026-11-26'));--> statement-breakpoint
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_webhook_retries_check" CHECK (not webhook_retries or webhook_url is not null);--> statement-breakpoint
-- The key cache keeps each key's merchant version (lib/auth/key-cache.ts): a change of it is announced too.
DROP TRIGGER "merchants_announce_change" ON "merchants";--> statement-breakpoint
CREATE TRIGGER "merchants_announce_change" AFTER UPDATE OF "status", "id", "api_version" OR DELETE OR TRUNCATE ON "merchants" FOR EACH STATEMENT EXECUTE FUNCTION "servicepay_announce_key_change"();
--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "retries" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "emails" DROP CONSTRAINT "emails_kind_check";--> statement-breakpoint
ALTER TABLE "emails" ADD CONSTRAINT "emails_kind_check" CHECK (kind in ('receipt', 'renewal_failed', 'cancelled', 'renewal_due', 'price_change', 'webhook_disabled'));
