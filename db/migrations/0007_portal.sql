CREATE INDEX "subscription_plans_merchant_reference_idx" ON "subscription_plans" USING btree ("merchant_id","external_reference");--> statement-breakpoint
CREATE INDEX "subscription_plans_merchant_upcoming_idx" ON "subscription_plans" USING btree ("merchant_id","next_charge_date") WHERE status = 'ACTIVE';--> statement-breakpoint
CREATE INDEX "subscription_plans_merchant_failing_idx" ON "subscription_plans" USING btree ("merchant_id","next_charge_date") WHERE status = 'ACTIVE' and renewal_failures > 0;--> statement-breakpoint
CREATE INDEX "transactions_merchant_charge_date_idx" ON "transactions" USING btree ("merchant_id","charge_date","status","amount");--> statement-breakpoint
CREATE INDEX "transactions_merchant_idx" ON "transactions" USING btree ("merchant_id","id");--> statement-breakpoint
CREATE INDEX "subscription_plans_customer_idx" ON "subscription_plans" USING btree ("customer_id","id");
