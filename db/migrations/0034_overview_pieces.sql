-- The portal's Overview at scale (docs/portal.md#overview): its figures kept as pieces that sum to
-- them, written by statement triggers from each statement's changed rows, so the page sums a few
-- rows instead of every plan and charge. compactOverviewPieces folds a merchant's pieces into one.
CREATE FUNCTION "servicepay_next_charge"("amount" bigint, "quantity" integer, "coupon_id" text, "discount_percent" smallint,
  "discount_amount" bigint, "discount_periods" smallint, "discount_periods_used" smallint) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$
  select amount * quantity - case when coupon_id is not null and (discount_periods is null or discount_periods_used < discount_periods)
    then greatest(0, least(amount * quantity - 100, case when discount_percent is null then least(discount_amount, amount * quantity)
      when amount * quantity % 100 = 0 then round(amount * quantity * discount_percent / 10000.0)::bigint * 100
      else round(amount * quantity * discount_percent / 100.0)::bigint end))
    else 0 end
$$;--> statement-breakpoint
CREATE TABLE "overview_plan_pieces" (
  "merchant_id" text NOT NULL,
  "active_plans" bigint NOT NULL,
  "at_risk" bigint NOT NULL,
  "trialing_plans" bigint NOT NULL,
  "mrr" numeric NOT NULL,
  "trial_mrr" numeric NOT NULL,
  "folded" boolean DEFAULT false NOT NULL
);--> statement-breakpoint
CREATE INDEX "overview_plan_pieces_merchant_idx" ON "overview_plan_pieces" USING btree ("merchant_id");--> statement-breakpoint
CREATE INDEX "overview_plan_pieces_unfolded_idx" ON "overview_plan_pieces" USING btree ("merchant_id") WHERE NOT folded;--> statement-breakpoint
CREATE TABLE "overview_day_pieces" (
  "merchant_id" text NOT NULL,
  "day" date NOT NULL,
  "revenue" bigint NOT NULL,
  "approved" bigint NOT NULL,
  "failed" bigint NOT NULL,
  "folded" boolean DEFAULT false NOT NULL
);--> statement-breakpoint
CREATE INDEX "overview_day_pieces_merchant_day_idx" ON "overview_day_pieces" USING btree ("merchant_id", "day");--> statement-breakpoint
CREATE INDEX "overview_day_pieces_unfolded_idx" ON "overview_day_pieces" USING btree ("merchant_id", "day") WHERE NOT folded;--> statement-breakpoint
-- The day figures were summed from this index; the pieces replace it.
DROP INDEX "transactions_merchant_charge_date_idx";--> statement-breakpoint
-- The two figures read by date rather than kept: plans made, and plans cancelled, this month.
CREATE INDEX "subscription_plans_merchant_created_idx" ON "subscription_plans" USING btree ("merchant_id", "created_at");--> statement-breakpoint
CREATE INDEX "subscription_plans_merchant_cancelled_idx" ON "subscription_plans" USING btree ("merchant_id", "updated_at") WHERE status = 'CANCELLED';--> statement-breakpoint
-- The rows a statement changed, signed: +1 as they are now, -1 as they were. Transition tables
-- exist only for their own event, hence the text.
CREATE FUNCTION "servicepay_changed_rows"("op" text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  select case op when 'INSERT' then 'select 1 as sign, * from new_rows'
    when 'DELETE' then 'select -1 as sign, * from old_rows'
    else 'select 1 as sign, * from new_rows union all select -1, * from old_rows' end
$$;--> statement-breakpoint
-- A month's worth of a charge (weekly × 52 / 12, yearly / 12, over the interval's count); null for a
-- plan without an interval, which MRR leaves out.
CREATE FUNCTION "servicepay_monthly"("charge" bigint, "interval_unit" text, "interval_count" smallint) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
  select charge::numeric * case interval_unit when 'week' then 52 when 'month' then 12 else 1 end / (12 * interval_count)
$$;--> statement-breakpoint
CREATE FUNCTION "servicepay_plan_pieces"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($q$
    INSERT INTO overview_plan_pieces (merchant_id, active_plans, at_risk, trialing_plans, mrr, trial_mrr)
    SELECT merchant_id, sum(active), sum(at_risk), sum(trialing), coalesce(sum(mrr), 0), coalesce(sum(trial_mrr), 0)
    FROM (
      SELECT merchant_id, sign * (status = 'ACTIVE')::int AS active, sign * (status = 'ACTIVE' and renewal_failures > 0)::int AS at_risk,
        sign * (status = 'TRIALING')::int AS trialing,
        case when status = 'ACTIVE' and modality = 'RECURRING' or status = 'TRIALING' then sign * servicepay_monthly(
          servicepay_next_charge(amount, quantity, coupon_id, discount_percent, discount_amount, discount_periods, discount_periods_used),
          interval_unit, interval_count) end AS monthly,
        status
      FROM (%s) p
      WHERE status in ('ACTIVE', 'TRIALING')
    ) changed_rows
    CROSS JOIN LATERAL (SELECT case when status = 'ACTIVE' then monthly end AS mrr, case when status = 'TRIALING' then monthly end AS trial_mrr) split
    GROUP BY merchant_id
    HAVING sum(active) <> 0 or sum(at_risk) <> 0 or sum(trialing) <> 0 or sum(mrr) <> 0 or sum(trial_mrr) <> 0
  $q$, servicepay_changed_rows(TG_OP));
  RETURN NULL;
END $$;--> statement-breakpoint
-- A charge's share of its Bogotá day: revenue and count when APPROVED, a failure when DECLINED or ERROR.
CREATE FUNCTION "servicepay_day_pieces"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($q$
    INSERT INTO overview_day_pieces (merchant_id, day, revenue, approved, failed)
    SELECT merchant_id, day, sum(revenue), sum(approved), sum(failed)
    FROM (
      SELECT merchant_id, (charge_date at time zone 'America/Bogota')::date AS day,
        sign * amount * (status = 'APPROVED')::int AS revenue, sign * (status = 'APPROVED')::int AS approved, sign * (status <> 'APPROVED')::int AS failed
      FROM (%s) t
      WHERE status in ('APPROVED', 'DECLINED', 'ERROR')
    ) changed
    GROUP BY merchant_id, day
    HAVING sum(revenue) <> 0 or sum(approved) <> 0 or sum(failed) <> 0
  $q$, servicepay_changed_rows(TG_OP));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "subscription_plans_pieces_insert" AFTER INSERT ON "subscription_plans" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "servicepay_plan_pieces"();--> statement-breakpoint
CREATE TRIGGER "subscription_plans_pieces_update" AFTER UPDATE ON "subscription_plans" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "servicepay_plan_pieces"();--> statement-breakpoint
CREATE TRIGGER "subscription_plans_pieces_delete" AFTER DELETE ON "subscription_plans" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "servicepay_plan_pieces"();--> statement-breakpoint
CREATE TRIGGER "transactions_pieces_insert" AFTER INSERT ON "transactions" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "servicepay_day_pieces"();--> statement-breakpoint
CREATE TRIGGER "transactions_pieces_update" AFTER UPDATE ON "transactions" REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "servicepay_day_pieces"();--> statement-breakpoint
CREATE TRIGGER "transactions_pieces_delete" AFTER DELETE ON "transactions" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "servicepay_day_pieces"();--> statement-breakpoint
-- What is there already, one piece per merchant (and day).
INSERT INTO "overview_plan_pieces" (merchant_id, active_plans, at_risk, trialing_plans, mrr, trial_mrr, folded)
SELECT merchant_id, count(*) filter (where status = 'ACTIVE'), count(*) filter (where status = 'ACTIVE' and renewal_failures > 0),
  count(*) filter (where status = 'TRIALING'),
  coalesce(sum(monthly) filter (where status = 'ACTIVE' and modality = 'RECURRING'), 0), coalesce(sum(monthly) filter (where status = 'TRIALING'), 0), true
FROM (SELECT *, servicepay_monthly(servicepay_next_charge(amount, quantity, coupon_id, discount_percent, discount_amount, discount_periods,
    discount_periods_used), interval_unit, interval_count) AS monthly
  FROM "subscription_plans" WHERE status in ('ACTIVE', 'TRIALING')) p
GROUP BY merchant_id;--> statement-breakpoint
INSERT INTO "overview_day_pieces" (merchant_id, day, revenue, approved, failed, folded)
SELECT merchant_id, (charge_date at time zone 'America/Bogota')::date, coalesce(sum(amount) filter (where status = 'APPROVED'), 0),
  count(*) filter (where status = 'APPROVED'), count(*) filter (where status <> 'APPROVED'), true
FROM "transactions" WHERE status in ('APPROVED', 'DECLINED', 'ERROR')
GROUP BY 1, 2;
