CREATE TABLE "webhook_attempts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "webhook_attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"event_id" text NOT NULL,
	"trigger" text NOT NULL,
	"url" text NOT NULL,
	"attempted_at" timestamp with time zone NOT NULL,
	"latency_ms" integer NOT NULL,
	"status_code" smallint,
	"ok" boolean NOT NULL,
	"error" text,
	"response_excerpt" text,
	CONSTRAINT "webhook_attempts_trigger_check" CHECK (trigger in ('automatic', 'manual'))
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"merchant_id" text NOT NULL,
	"plan_id" text NOT NULL,
	"transaction_id" text NOT NULL,
	"type" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_until" timestamp with time zone,
	"dispatched_at" timestamp with time zone,
	CONSTRAINT "webhook_events_type_check" CHECK (type in ('subscription.charge.approved', 'subscription.charge.declined', 'subscription.charge.error', 'subscription.charge.voided'))
);
--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_event_id_webhook_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."webhook_events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_merchant_id_merchants_id_fk" FOREIGN KEY ("merchant_id") REFERENCES "public"."merchants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_plan_id_subscription_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."subscription_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_attempts_event_idx" ON "webhook_attempts" USING btree ("event_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_events_one_per_outcome" ON "webhook_events" USING btree ("transaction_id","type");--> statement-breakpoint
CREATE INDEX "webhook_events_plan_idx" ON "webhook_events" USING btree ("merchant_id","plan_id","id");--> statement-breakpoint
CREATE INDEX "webhook_events_merchant_idx" ON "webhook_events" USING btree ("merchant_id","id");--> statement-breakpoint
CREATE INDEX "webhook_events_undispatched_idx" ON "webhook_events" USING btree ("created_at") WHERE dispatched_at is null;