ALTER TABLE "merchants" ADD COLUMN "processor_type" text DEFAULT 'sandbox' NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "wompi_public_key" text;--> statement-breakpoint
ALTER TABLE "merchants" ADD COLUMN "wompi_secrets" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "payment_method_type" text DEFAULT 'CARD' NOT NULL;--> statement-breakpoint
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_processor_type_check" CHECK (processor_type in ('sandbox', 'wompi'));--> statement-breakpoint
ALTER TABLE "merchants" ADD CONSTRAINT "merchants_wompi_keys_check" CHECK (processor_type <> 'wompi' or (wompi_public_key is not null and wompi_secrets is not null));--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_payment_method_type_check" CHECK (payment_method_type in ('CARD', 'NEQUI', 'PSE'));
