-- Coupons (docs/billing.md#coupons): the coupons table, and on each plan the coupon applied with its terms.
CREATE TABLE "coupons" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"code" text,
	"percent_off" smallint,
	"amount_off" bigint,
	"duration" text NOT NULL,
	"duration_in_periods" smallint,
	"max_redemptions" integer,
	"times_redeemed" integer DEFAULT 0 NOT NULL,
	"redeem_by" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "coupons_off_check" CHECK ((percent_off is null) <> (amount_off is null)),
	CONSTRAINT "coupons_percent_off_check" CHECK (percent_off is null or percent_off between 1 and 99),
	CONSTRAINT "coupons_amount_off_check" CHECK (amount_off is null or amount_off between 1 and 99999999999),
	CONSTRAINT "coupons_duration_check" CHECK (duration in ('once', 'repeating', 'forever')),
	CONSTRAINT "coupons_periods_check" CHECK ((duration = 'repeating') = (duration_in_periods is not null) and (duration_in_periods is null or duration_in_periods between 1 and 36)),
	CONSTRAINT "coupons_code_check" CHECK (code is null or code ~ '^[A-Z0-9_-]{3,40}$'),
	CONSTRAINT "coupons_redemptions_check" CHECK (times_redeemed >= 0 and (max_redemptions is null or (max_redemptions >= 1 and times_redeemed <= max_redemptions)))
);
--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "coupon_id" text;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "discount_percent" smallint;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "discount_amount" bigint;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "discount_periods" smallint;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "discount_periods_used" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "allow_promotion_codes" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "coupons" ADD CONSTRAINT "coupons_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "coupons_merchant_code_key" ON "coupons" USING btree ("merchant_id","code") WHERE deleted_at is null and code is not null;--> statement-breakpoint
CREATE INDEX "coupons_merchant_idx" ON "coupons" USING btree ("merchant_id","id");--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_coupon_id_coupons_id_fk" FOREIGN KEY ("coupon_id") REFERENCES "public"."coupons"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_discount_check" CHECK ((coupon_id is null and discount_percent is null and discount_amount is null and discount_periods is null) or (coupon_id is not null and (discount_percent is null) <> (discount_amount is null)));