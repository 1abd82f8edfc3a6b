ALTER TABLE "merchants" ADD COLUMN "nit" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "period_start" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "discount" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_nit_check" CHECK (nit is null or nit ~ '^[0-9]{6,10}(-[0-9])?$');--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_discount_check" CHECK (discount >= 0);