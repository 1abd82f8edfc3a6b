CREATE TABLE "wompi_nequi_waits" (
	"transaction_id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"nequi_token" text NOT NULL,
	"acceptance_token" text NOT NULL,
	"personal_data_token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wompi_nequi_waits_nequi_token_unique" UNIQUE("nequi_token")
);
--> statement-breakpoint
ALTER TABLE "wompi_nequi_waits" ADD CONSTRAINT "wompi_nequi_waits_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wompi_nequi_waits" ADD CONSTRAINT "wompi_nequi_waits_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;