-- Quantity (seats, docs/billing.md#quantity): the plan's amount is the unit price, each charge
-- takes unit × quantity; a quantity change waits in scheduled_quantity as a price change does.
-- Each charge keeps the quantity and unit price it took, for its receipt's lines.
ALTER TABLE "subscription_plans" ADD COLUMN "quantity" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD COLUMN "scheduled_quantity" integer;--> statement-breakpoint
ALTER TABLE "subscription_plans" ADD CONSTRAINT "subscription_plans_quantity_check" CHECK (quantity between 1 and 10000 and (scheduled_quantity is null or scheduled_quantity between 1 and 10000));--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "quantity" integer;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "unit_amount" bigint;
