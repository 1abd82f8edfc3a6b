CREATE TABLE "api_keys" (
	"key" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"secret_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "customers" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"first_name" text,
	"last_name" text,
	"id_type" text,
	"id_number" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"merchant_id" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"response_status" integer NOT NULL,
	"response_body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_merchant_id_key_pk" PRIMARY KEY("merchant_id","key")
);
--> statement-breakpoint
CREATE TABLE "merchants" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"webhook_url" text,
	"webhook_secret" text NOT NULL,
	"allowed_domains" text[] DEFAULT '{}'::text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "merchants_status_check" CHECK (status in ('ACTIVE', 'INACTIVE'))
);
--> statement-breakpoint
CREATE TABLE "subscription_plans" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"customer_id" text NOT NULL,
	"external_reference" text NOT NULL,
	"description" text NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text DEFAULT 'COP' NOT NULL,
	"modality" text NOT NULL,
	"interval" text,
	"status" text DEFAULT 'PENDING_ACTIVATION' NOT NULL,
	"next_charge_date" timestamp with time zone,
	"billing_anchor_day" smallint,
	"payment_method_token" text,
	"checkout_token" text NOT NULL,
	"token_expires_at" timestamp with time zone NOT NULL,
	"customer_phone" text NOT NULL,
	"customer_email" text NOT NULL,
	"customer_first_name" text,
	"customer_last_name" text,
	"customer_id_type" text,
	"customer_id_number" text,
	"cancel_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscription_plans_amount_check" CHECK (amount between 100 and 99999999999),
	CONSTRAINT "subscription_plans_status_check" CHECK (status in ('PENDING_ACTIVATION', 'ACTIVE', 'PAUSED', 'CANCELLED', 'COMPLETED')),
	CONSTRAINT "subscription_plans_modality_check" CHECK (modality in ('RECURRING', 'SINGLE'))
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id" text PRIMARY KEY NOT NULL,
	"plan_id" text NOT NULL,
	"merchant_id" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"amount" bigint NOT NULL,
	"currency" text DEFAULT 'COP' NOT NULL,
	"charge_date" timestamp with time zone DEFAULT now() NOT NULL,
	"gateway_transaction_id" text,
	"payment_method_token" text,
	"card_brand" text,
	"card_last4" text,
	"failure_code" text,
	"failure_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transactions_status_check" CHECK (status in ('PENDING', 'APPROVED', 'DECLINED', 'VOIDED', 'ERROR')),
	CONSTRAINT "transactions_kind_check" CHECK (kind in ('INITIAL', 'RENEWAL')),
	CONSTRAINT "transactions_last4_check" CHECK (card_last4 is null or card_last4 ~ '^[0-9]{4}$')
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_plan_id_subscription_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."subscription_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_keys_merchant_idx" ON "api_keys" USING btree ("merchant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "customers_merchant_email_key" ON "customers" USING btree ("merchant_id",lower("email"));--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_plans_checkout_token_key" ON "subscription_plans" USING btree ("checkout_token");--> statement-breakpoint
CREATE UNIQUE INDEX "subscription_plans_open_reference_key" ON "subscription_plans" USING btree ("merchant_id","external_reference") WHERE status in ('PENDING_ACTIVATION', 'ACTIVE', 'PAUSED');--> statement-breakpoint
CREATE INDEX "subscription_plans_merchant_idx" ON "subscription_plans" USING btree ("merchant_id","id");--> statement-breakpoint
CREATE INDEX "subscription_plans_due_idx" ON "subscription_plans" USING btree ("next_charge_date") WHERE status = 'ACTIVE';--> statement-breakpoint
CREATE INDEX "transactions_plan_idx" ON "transactions" USING btree ("plan_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_one_pending_per_plan" ON "transactions" USING btree ("plan_id") WHERE status = 'PENDING';--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_one_initial_approval" ON "transactions" USING btree ("plan_id") WHERE kind = 'INITIAL' and status in ('APPROVED', 'VOIDED');