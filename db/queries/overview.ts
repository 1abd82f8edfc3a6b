import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../client';

// The portal's Overview (docs/portal.md#overview): what a subscription business looks at first.
// Its running figures are sums of pieces that statement triggers write as plans and charges change
// (db/migrations/0034_overview_pieces.sql); compactOverviewPieces folds them. Days are Bogotá's.

const TZ = 'America/Bogota';
/** What a plan's next charge takes, coupon included (lib/coupons/discount.ts#discountFor in SQL; overview.test.ts holds them equal). */
const NEXT_CHARGE = sql.raw('servicepay_next_charge(amount, quantity, coupon_id, discount_percent, discount_amount, discount_periods, discount_periods_used)');

interface PlanFigures {
  /**
   * Monthly recurring revenue, net of coupons (docs/billing.md#coupons): what the ACTIVE RECURRING
   * plans' next charges are after their discount, each brought to a month
   * (weekly × 52 / 12, yearly / 12, and divided by the interval's count), summed and rounded to a
   * whole cent once, in cents (lib/calendar/interval.ts#monthlyAmount says the same per plan).
   */
  mrr: number;
  activePlans: number;
  newThisMonth: number;
  /** Plans CANCELLED since the month began (a cancelled plan never changes again: its updatedAt is the cancellation). */
  cancelledThisMonth: number;
  /** ACTIVE plans whose renewal failed and waits for a retry. */
  atRisk: number;
  /** Plans in a free trial (docs/billing.md#trials): counted apart, never in `mrr`. */
  trialingPlans: number;
  /** What the trialing plans would add to MRR once charged, brought to a month as `mrr` is, in cents. */
  trialMrr: number;
}


export async function planFigures(db: Db, merchantId: string, now: Date): Promise<PlanFigures> {
  const [row] = await queryRows<Record<keyof PlanFigures, string | number>>(
    db,
    sql`with month as (select date_trunc('month', ${now.toISOString()}::timestamptz at time zone ${TZ}) at time zone ${TZ} as start)
    select coalesce(round(sum(mrr)), 0) as "mrr", coalesce(sum(active_plans), 0) as "activePlans", coalesce(sum(at_risk), 0) as "atRisk",
      coalesce(sum(trialing_plans), 0) as "trialingPlans", coalesce(round(sum(trial_mrr)), 0) as "trialMrr",
      (select count(*) from subscription_plans, month where merchant_id = ${merchantId} and created_at >= month.start) as "newThisMonth",
      (select count(*) from subscription_plans, month where merchant_id = ${merchantId} and status = 'CANCELLED' and updated_at >= month.start) as "cancelledThisMonth"
    from overview_plan_pieces where merchant_id = ${merchantId}`,
  );
  return {
    mrr: Number(row!.mrr),
    activePlans: Number(row!.activePlans),
    newThisMonth: Number(row!.newThisMonth),
    cancelledThisMonth: Number(row!.cancelledThisMonth),
    atRisk: Number(row!.atRisk),
    trialingPlans: Number(row!.trialingPlans),
    trialMrr: Number(row!.trialMrr),
  };
}

interface DayFigures {
  /** yyyy-mm-dd in Bogotá. */
  day: string;
  /** Approved charges (not voided), in cents. */
  revenue: number;
  approved: number;
  /** DECLINED or ERROR: charges that reached an outcome other than approval. */
  failed: number;
}

/** Every one of the last `days` days (today included), with zeros where nothing was charged. */
export async function dailyFigures(db: Db, merchantId: string, now: Date, days: number): Promise<DayFigures[]> {
  const today = sql`(${now.toISOString()}::timestamptz at time zone ${TZ})::date`;
  const rows = await queryRows<{ day: string; revenue: string | number; approved: string | number; failed: string | number }>(
    db,
    sql`with per_day as (
        select day, sum(revenue) as revenue, sum(approved) as approved, sum(failed) as failed
        from overview_day_pieces
        where merchant_id = ${merchantId} and day between ${today} - ${days - 1}::int and ${today}
        group by day
      )
      select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(p.revenue, 0) as revenue, coalesce(p.approved, 0) as approved, coalesce(p.failed, 0) as failed
      from generate_series(${today} - ${days - 1}::int, ${today}, interval '1 day') as d(day)
      left join per_day p on p.day = d.day::date
      order by d.day`,
  );
  return rows.map((r) => ({ day: r.day, revenue: Number(r.revenue), approved: Number(r.approved), failed: Number(r.failed) }));
}

/**
 * Folds every merchant's (and day's) unfolded pieces into one folded piece, so the Overview sums
 * few rows. Each statement deletes only what it read, so a concurrent fold or trigger loses nothing.
 */
// Two folds at once would delete the same rows in different orders and deadlock: the second waits its turn.
const ONE_AT_A_TIME = sql.raw("(select pg_try_advisory_xact_lock(hashtext('servicepay overview fold')))");

export async function compactOverviewPieces(db: Db): Promise<number> {
  const [plans] = await queryRows<{ n: number }>(
    db,
    sql`with touched as (select distinct merchant_id from overview_plan_pieces where not folded and ${ONE_AT_A_TIME}),
      gone as (delete from overview_plan_pieces p using touched where p.merchant_id = touched.merchant_id returning p.*),
      kept as (insert into overview_plan_pieces (merchant_id, active_plans, at_risk, trialing_plans, mrr, trial_mrr, folded)
        select merchant_id, sum(active_plans), sum(at_risk), sum(trialing_plans), sum(mrr), sum(trial_mrr), true from gone group by merchant_id
        returning 1)
      select (select count(*) from gone)::int as n`,
  );
  const [days] = await queryRows<{ n: number }>(
    db,
    sql`with touched as (select distinct merchant_id, day from overview_day_pieces where not folded and ${ONE_AT_A_TIME}),
      gone as (delete from overview_day_pieces p using touched where p.merchant_id = touched.merchant_id and p.day = touched.day returning p.*),
      kept as (insert into overview_day_pieces (merchant_id, day, revenue, approved, failed, folded)
        select merchant_id, day, sum(revenue), sum(approved), sum(failed), true from gone group by merchant_id, day
        returning 1)
      select (select count(*) from gone)::int as n`,
  );
  return plans!.n + days!.n;
}

export interface RenewalRow {
  id: string;
  externalReference: string;
  customerEmail: string;
  /** What the next charge (or retry) takes, in cents: the plan's price less its coupon while the coupon lasts, as `mrr` counts it. */
  amount: number;
  renewalFailures: number;
  nextChargeDate: Date;
}

const renewalColumns = sql`id, external_reference as "externalReference", customer_email as "customerEmail", ${NEXT_CHARGE} as amount,
  renewal_failures as "renewalFailures", next_charge_date as "nextChargeDate"`;

function toRenewal(r: Record<string, unknown>): RenewalRow {
  return {
    id: String(r.id),
    externalReference: String(r.externalReference),
    customerEmail: String(r.customerEmail),
    amount: Number(r.amount),
    renewalFailures: Number(r.renewalFailures),
    nextChargeDate: new Date(r.nextChargeDate as string | Date),
  };
}

/** ACTIVE plans whose last renewal failed, soonest retry first (nextChargeDate is the retry). */
export async function failedRenewals(db: Db, merchantId: string, limit: number): Promise<RenewalRow[]> {
  const rows = await queryRows(
    db,
    sql`select ${renewalColumns} from subscription_plans
      where merchant_id = ${merchantId} and status = 'ACTIVE' and renewal_failures > 0
      order by next_charge_date, id limit ${limit}`,
  );
  return rows.map(toRenewal);
}

/** The next renewals due (ACTIVE RECURRING plans with no failure pending), soonest first. */
export async function upcomingRenewals(db: Db, merchantId: string, now: Date, limit: number): Promise<RenewalRow[]> {
  const rows = await queryRows(
    db,
    sql`select ${renewalColumns} from subscription_plans
      where merchant_id = ${merchantId} and status = 'ACTIVE' and modality = 'RECURRING' and renewal_failures = 0
        and next_charge_date >= ${now.toISOString()}::timestamptz
      order by next_charge_date, id limit ${limit}`,
  );
  return rows.map(toRenewal);
}
