import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../client';

// The portal's Overview (docs/portal.md#overview): what a subscription business looks at first,
// each figure one SQL aggregate scoped to the merchant. Days and months are Bogotá's.
// Indexes: db/migrations/0007_portal.sql; timings: docs/benchmarks.md (npm run bench:portal).

const TZ = 'America/Bogota';
/** A midnight in Bogotá, the origin of the day bins. */
const BOGOTA_MIDNIGHT = '2000-01-01T05:00:00Z';

/**
 * The coupon discount of a plan's next charge, in SQL: lib/coupons/discount.ts#discountFor, which
 * charges use (a percentage rounded half up, to whole pesos on a whole-peso price; never leaving
 * less than 100 cents; none once its periods are used). overview.test.ts holds the two equal.
 */
// What each charge lists: unit price × seats (docs/billing.md#quantity).
const LIST = '(amount * quantity)';
const LIST_AMOUNT = sql.raw(LIST);
const NEXT_DISCOUNT = sql.raw(`case when coupon_id is not null and (discount_periods is null or discount_periods_used < discount_periods)
  then greatest(0, least(${LIST} - 100, case when discount_percent is null then least(discount_amount, ${LIST})
    when ${LIST} % 100 = 0 then round(${LIST} * discount_percent / 10000.0) * 100
    else round(${LIST} * discount_percent / 100.0) end))
  else 0 end`);

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
    sql`select
      coalesce(round(sum((${LIST_AMOUNT} - ${NEXT_DISCOUNT})::numeric * case interval_unit when 'week' then 52 when 'month' then 12 else 1 end / (12 * interval_count))
        filter (where status = 'ACTIVE' and modality = 'RECURRING')), 0) as "mrr",
      count(*) filter (where status = 'ACTIVE') as "activePlans",
      count(*) filter (where created_at >= month.start) as "newThisMonth",
      count(*) filter (where status = 'CANCELLED' and updated_at >= month.start) as "cancelledThisMonth",
      count(*) filter (where status = 'ACTIVE' and renewal_failures > 0) as "atRisk",
      count(*) filter (where status = 'TRIALING') as "trialingPlans",
      coalesce(round(sum((${LIST_AMOUNT} - ${NEXT_DISCOUNT})::numeric * case interval_unit when 'week' then 52 when 'month' then 12 else 1 end / (12 * interval_count))
        filter (where status = 'TRIALING')), 0) as "trialMrr"
    from subscription_plans,
      (select date_trunc('month', ${now.toISOString()}::timestamptz at time zone ${TZ}) at time zone ${TZ} as start) as month
    where merchant_id = ${merchantId}`,
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
  // The merchant's charges of the range are summed per day first (transactions_merchant_charge_date_idx
  // holds every column read), then laid on the calendar so that empty days show as zeros. Days
  // are binned by arithmetic from a Bogotá midnight (date_bin; Colombia keeps UTC-5 all year),
  // not by a time-zone conversion per row.
  const today = sql`(${now.toISOString()}::timestamptz at time zone ${TZ})::date`;
  const rows = await queryRows<{ day: string; revenue: string | number; approved: string | number; failed: string | number }>(
    db,
    sql`with per_day as (
        select date_bin('1 day', charge_date, ${BOGOTA_MIDNIGHT}::timestamptz) as bin,
          sum(amount) filter (where status = 'APPROVED') as revenue,
          count(*) filter (where status = 'APPROVED') as approved,
          count(*) filter (where status in ('DECLINED', 'ERROR')) as failed
        from transactions
        where merchant_id = ${merchantId}
          and charge_date >= ((${today} - ${days - 1}::int)::timestamp at time zone ${TZ})
          and charge_date < ((${today} + 1)::timestamp at time zone ${TZ})
        group by 1
      )
      select to_char(d.day, 'YYYY-MM-DD') as day, coalesce(p.revenue, 0) as revenue, coalesce(p.approved, 0) as approved, coalesce(p.failed, 0) as failed
      from generate_series((${today} - ${days - 1}::int)::timestamp, ${today}::timestamp, interval '1 day') as d(day)
      left join per_day p on p.bin = (d.day at time zone ${TZ})
      order by d.day`,
  );
  return rows.map((r) => ({ day: r.day, revenue: Number(r.revenue), approved: Number(r.approved), failed: Number(r.failed) }));
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

const renewalColumns = sql`id, external_reference as "externalReference", customer_email as "customerEmail", ${LIST_AMOUNT} - ${NEXT_DISCOUNT} as amount,
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
