-- Refund due (docs/billing.md#refund-due): a late PSE or Nequi payment of a renewal link cannot be
-- voided, so it is owed back until the merchant marks it refunded; its opt-in event charge.refund_due.
-- Late payments approved before this migration are marked due as of their last change.
ALTER TABLE "transactions" ADD COLUMN "refund_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_refunded_check" CHECK (refunded_at is null or refund_due_at is not null);--> statement-breakpoint
CREATE INDEX "transactions_refund_due_idx" ON "transactions" USING btree ("merchant_id","id") WHERE refund_due_at is not null and refunded_at is null;--> statement-breakpoint
UPDATE "transactions" AS t SET "refund_due_at" = t."updated_at"
  FROM "renewal_links" AS l
  WHERE l."id" = t."renewal_link_id" AND l."status" <> 'PAID' AND t."status" = 'APPROVED' AND t."payment_method_type" <> 'CARD';--> statement-breakpoint
ALTER TABLE "webhook_events" DROP CONSTRAINT "webhook_events_type_check";--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_type_check" CHECK (type in ('subscription.charge.approved', 'subscription.charge.declined', 'subscription.charge.error', 'subscription.charge.voided', 'subscription.activated', 'subscription.paused', 'subscription.resumed', 'subscription.cancelled', 'subscription.payment_method_updated', 'subscription.updated', 'subscription.renewal_due', 'subscription.trial_will_end', 'charge.refund_due'));
