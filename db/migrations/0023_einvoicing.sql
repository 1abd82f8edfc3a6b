-- Electronic invoicing to DIAN (docs/einvoicing.md#issuing): per-merchant settings, the buyer a
-- plan's invoices are made out to, and one invoice per approved charge (a credit note per void).
ALTER TABLE "merchants" ADD COLUMN "einvoice_provider" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "einvoice_iva" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "einvoice_secrets" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "einvoice_next_number" bigint;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "einvoice_next_note_number" bigint DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_einvoice_check" CHECK ((einvoice_provider is null and einvoice_iva is null and einvoice_secrets is null) or (einvoice_provider in ('factus', 'alegra') and einvoice_iva in ('19', '5', '0', 'excluded') and einvoice_secrets is not null));--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "customer_tax_id_type" text;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "customer_tax_id_number" text;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "customer_tax_id_dv" smallint;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "customer_legal_name" text;--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"plan_id" text NOT NULL,
	"transaction_id" text NOT NULL,
	"kind" text NOT NULL,
	"invoice_id" text,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"provider" text NOT NULL,
	"number" text,
	"cufe" text,
	"qr_url" text,
	"pdf_url" text,
	"provider_id" text,
	"caller_number" bigint,
	"caller_prefix" text,
	"issue_date" text,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"warnings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"last_error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retry_until" timestamp with time zone NOT NULL,
	"claim" text,
	"claimed_until" timestamp with time zone,
	"voided_at" timestamp with time zone,
	"total" bigint NOT NULL,
	"net" bigint NOT NULL,
	"iva_amount" bigint NOT NULL,
	"iva_rate" text NOT NULL,
	"lines" jsonb NOT NULL,
	"buyer" jsonb NOT NULL,
	"payment_method" text NOT NULL,
	"period_start" text,
	"period_end" text,
	"issued_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_kind_check" CHECK (kind in ('INVOICE', 'CREDIT_NOTE')),
	CONSTRAINT "invoices_status_check" CHECK (status in ('PENDING', 'ISSUED', 'REJECTED', 'FAILED', 'CANCELLED')),
	CONSTRAINT "invoices_note_check" CHECK ((kind = 'INVOICE') = (invoice_id is null)),
	CONSTRAINT "invoices_amounts_check" CHECK (total > 0 and net >= 0 and iva_amount >= 0 and net + iva_amount = total)
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_plan_id_subscription_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."subscription_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_one_per_charge" ON "invoices" USING btree ("transaction_id","kind");--> statement-breakpoint
CREATE INDEX "invoices_merchant_idx" ON "invoices" USING btree ("merchant_id","id");--> statement-breakpoint
CREATE INDEX "invoices_plan_idx" ON "invoices" USING btree ("plan_id","id");--> statement-breakpoint
CREATE INDEX "invoices_due_idx" ON "invoices" USING btree ("next_attempt_at") WHERE status = 'PENDING';
