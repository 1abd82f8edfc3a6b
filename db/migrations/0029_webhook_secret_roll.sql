ALTER TABLE "merchants" ADD COLUMN "webhook_secret_previous" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "webhook_secret_rolled_until" timestamp with time zone;
