import { and, asc, desc, eq, gt, inArray, lte, or, sql } from 'drizzle-orm';
import { type Db, preparedFor, prepareSql, queryRows } from '../client';
import { customers, type ID_TYPES, merchants, OPEN_PLAN_STATUSES, subscriptionPlans, transactions } from '../schema';
import type { AuditInsert } from './audit';
import { firstRow } from './first-row';
import { updateInStatus } from './update-in-status';
import { clockScope } from './test-clocks';

export type PlanRow = typeof subscriptionPlans.$inferSelect;
type MerchantStatus = (typeof merchants.$inferSelect)['status'];
type CustomerInput = Omit<typeof customers.$inferInsert, 'createdAt' | 'updatedAt'>;

type PlanInput = Pick<
  typeof subscriptionPlans.$inferInsert,
  | 'id'
  | 'merchantId'
  | 'externalReference'
  | 'description'
  | 'amount'
  | 'modality'
  | 'intervalUnit'
  | 'intervalCount'
  | 'trialDays'
  | 'status'
  | 'checkoutToken'
  | 'allowPromotionCodes'
  | 'couponId'
  | 'discountPercent'
  | 'discountAmount'
  | 'discountPeriods'
  | 'customerTaxIdType'
  | 'customerTaxIdNumber'
  | 'customerTaxIdDv'
  | 'customerLegalName'
  | 'quantity'
  | 'setupFee'
  | 'usageUnitAmount'
  | 'usageIncludedUnits'
  | 'minimumPeriods'
  | 'billingDay'
  | 'iva'
> & { nextChargeDate: Date; tokenExpiresAt: Date; createdAt: Date };

const ph = sql.placeholder;

const insertPlanWithCustomerQuery = preparedFor((db) =>
  prepareSql(
    db,
    'insert_plan_with_customer',
    // drizzle cannot name the expression index lower(email) as a conflict target, hence plain SQL.
    sql`with customer as (
          insert into customers (id, merchant_id, email, phone, first_name, last_name, id_type, id_number)
          values (${ph('customerId')}, ${ph('merchantId')}, ${ph('email')}, ${ph('phone')}, ${ph('firstName')}, ${ph('lastName')},
                  ${ph('idType')}, ${ph('idNumber')})
          on conflict (merchant_id, lower(email)) do update set
            phone = excluded.phone,
            first_name = coalesce(excluded.first_name, customers.first_name),
            last_name = coalesce(excluded.last_name, customers.last_name),
            id_type = coalesce(excluded.id_type, customers.id_type),
            id_number = coalesce(excluded.id_number, customers.id_number),
            updated_at = now()
          returning id
        ),
        audit as (
          insert into audit_log (merchant_id, actor_type, actor_id, actor_label, ip, action, target, changes)
          select ${ph('auditMerchantId')}::text, ${ph('auditActorType')}::text, ${ph('auditActorId')}::text, ${ph('auditActorLabel')}::text, ${ph('auditIp')}::text,
                 ${ph('auditAction')}::text, ${ph('auditTarget')}::text, ${ph('auditChanges')}::text::jsonb
          where ${ph('auditAction')}::text is not null
        )
        insert into subscription_plans (id, merchant_id, customer_id, external_reference, description, amount, modality, interval_unit, interval_count,
          trial_days, status, next_charge_date, checkout_token, token_expires_at, customer_phone, customer_email, customer_first_name,
          customer_last_name, customer_id_type, customer_id_number, allow_promotion_codes, coupon_id, discount_percent, discount_amount,
          discount_periods, customer_tax_id_type, customer_tax_id_number, customer_tax_id_dv, customer_legal_name, quantity, setup_fee, usage_unit_amount, usage_included_units, minimum_periods, billing_day, iva, created_at, updated_at)
        values (${ph('planId')}, ${ph('merchantId')}, (select id from customer), ${ph('externalReference')}, ${ph('description')},
          ${ph('amount')}, ${ph('modality')}, ${ph('intervalUnit')}, ${ph('intervalCount')}, ${ph('trialDays')}, ${ph('status')}, ${ph('nextChargeDate')}, ${ph('checkoutToken')},
          ${ph('tokenExpiresAt')}, ${ph('phone')}, ${ph('email')}, ${ph('firstName')}, ${ph('lastName')}, ${ph('idType')},
          ${ph('idNumber')}, ${ph('allowPromotionCodes')}, ${ph('couponId')}, ${ph('discountPercent')}, ${ph('discountAmount')},
          ${ph('discountPeriods')}, ${ph('taxIdType')}, ${ph('taxIdNumber')}, ${ph('taxIdDv')}, ${ph('legalName')}, ${ph('quantity')}, ${ph('setupFee')}, ${ph('usageUnitAmount')}, ${ph('usageIncludedUnits')}, ${ph('minimumPeriods')}, ${ph('billingDay')}, ${ph('iva')}, ${ph('createdAt')}, ${ph('createdAt')})`,
  ),
);

/** The plan's columns a link may leave out, stored as null. */
const OPTIONAL_PLAN_FIELDS = [
  'intervalUnit',
  'intervalCount',
  'trialDays',
  'couponId',
  'discountPercent',
  'discountAmount',
  'discountPeriods',
  'setupFee',
  'usageUnitAmount',
  'usageIncludedUnits',
  'minimumPeriods',
  'billingDay',
  'iva',
] as const;

/** `keys` of `values`, each null where it is missing. */
const orNull = <T, K extends keyof T>(values: T, keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, values[k] ?? null]));

/**
 * A new plan and its customer (one per merchant and e-mail: created, or brought up to date with
 * what this link says) in one statement, so one round trip and atomic without a transaction of
 * its own; a unique violation (the open externalReference) undoes the customer's change too.
 * The plan keeps the customer's details as this link sent them (its customer_* columns). With
 * `audit`, the same statement writes the merchant's audit entry of the creation, committed or
 * undone with it. Prepared: every link creation runs it.
 */
export async function insertPlanWithCustomer(db: Db, c: CustomerInput, p: PlanInput, audit?: AuditInsert): Promise<void> {
  // Times go as ISO strings so both drivers (postgres.js, PGlite) send them the same way.
  await insertPlanWithCustomerQuery(db).execute({
    ...orNull(c, ['firstName', 'lastName', 'idType', 'idNumber']),
    ...orNull(p, OPTIONAL_PLAN_FIELDS),
    customerId: c.id,
    merchantId: c.merchantId,
    email: c.email,
    phone: c.phone,
    planId: p.id,
    externalReference: p.externalReference,
    description: p.description,
    amount: p.amount,
    modality: p.modality,
    status: p.status ?? 'PENDING_ACTIVATION',
    nextChargeDate: p.nextChargeDate.toISOString(),
    checkoutToken: p.checkoutToken,
    tokenExpiresAt: p.tokenExpiresAt.toISOString(),
    allowPromotionCodes: p.allowPromotionCodes ?? false,
    taxIdType: p.customerTaxIdType ?? null,
    taxIdNumber: p.customerTaxIdNumber ?? null,
    taxIdDv: p.customerTaxIdDv ?? null,
    legalName: p.customerLegalName ?? null,
    quantity: p.quantity ?? 1,
    createdAt: p.createdAt.toISOString(),
    auditMerchantId: audit?.merchantId ?? null,
    auditActorType: audit?.actorType ?? null,
    auditActorId: audit?.actorId ?? null,
    auditActorLabel: audit?.actorLabel ?? null,
    auditIp: audit?.ip ?? null,
    auditAction: audit?.action ?? null,
    auditTarget: audit?.target ?? null,
    auditChanges: audit ? JSON.stringify(audit.changes ?? {}) : null,
  });
}

/**
 * The plan, locked for the rest of the caller's transaction. Every change to a plan's payments
 * takes this lock first, so attempts and their outcomes are serialized per plan, always in the
 * same lock order (plan, then transaction). Prepared: a renewal runs it (docs/performance.md#a-renewals-statements-prepared).
 */
export async function lockPlan(db: Db, planId: string): Promise<PlanRow> {
  const [row] = await db.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, planId)).for('update').prepare('lock_plan').execute();
  return row!;
}

/** The plan locked as lockPlan does, and its merchant's status (read, not locked) in the same statement. Prepared: a renewal runs it (docs/performance.md#a-renewals-statements-prepared). */
export async function lockPlanOfMerchant(db: Db, planId: string): Promise<{ plan: PlanRow; merchantStatus: MerchantStatus }> {
  const [row] = await db
    .select({ plan: subscriptionPlans, merchantStatus: merchants.status })
    .from(subscriptionPlans)
    .innerJoin(merchants, eq(merchants.id, subscriptionPlans.merchantId))
    .where(eq(subscriptionPlans.id, planId))
    .for('update', { of: subscriptionPlans })
    .prepare('lock_plan_of_merchant')
    .execute();
  return row!;
}

/** PENDING_ACTIVATION → ACTIVE or COMPLETED after the first approved charge; undefined if the plan moved on. */
export async function activatePlan(
  db: Db,
  planId: string,
  values: Pick<PlanRow, 'status' | 'nextChargeDate' | 'billingAnchorDay' | 'paymentMethodToken' | 'renewalCollection' | 'termEndsAt'>,
): Promise<PlanRow | undefined> {
  return updateInStatus(db, subscriptionPlans, planId, 'PENDING_ACTIVATION', values);
}

/** A plan of this merchant, or undefined: the merchant is in the `where`, never checked after. */
export async function getPlanForMerchant(db: Db, { merchantId, planId }: { merchantId: string; planId: string }) {
  return firstRow(db, subscriptionPlans, and(eq(subscriptionPlans.id, planId), eq(subscriptionPlans.merchantId, merchantId)));
}

const planWithLastTransactionQuery = preparedFor((db) => {
  const latest = db
    .select({ id: transactions.id })
    .from(transactions)
    .where(eq(transactions.planId, subscriptionPlans.id))
    .orderBy(desc(transactions.id))
    .limit(1);
  return db
    .select({
      plan: {
        id: subscriptionPlans.id,
        externalReference: subscriptionPlans.externalReference,
        status: subscriptionPlans.status,
        amount: subscriptionPlans.amount,
        description: subscriptionPlans.description,
        nextChargeDate: subscriptionPlans.nextChargeDate,
        intervalUnit: subscriptionPlans.intervalUnit,
        intervalCount: subscriptionPlans.intervalCount,
        trialDays: subscriptionPlans.trialDays,
        trialEndsAt: subscriptionPlans.trialEndsAt,
        cancelAt: subscriptionPlans.cancelAt,
        quantity: subscriptionPlans.quantity,
      },
      lastTransaction: {
        id: transactions.id,
        status: transactions.status,
        amount: transactions.amount,
        chargeDate: transactions.chargeDate,
        gatewayTransactionId: transactions.gatewayTransactionId,
        refundDueAt: transactions.refundDueAt,
        refundedAt: transactions.refundedAt,
      },
    })
    .from(subscriptionPlans)
    .leftJoin(transactions, eq(transactions.id, sql`(${latest})`))
    .where(and(eq(subscriptionPlans.id, sql.placeholder('planId')), eq(subscriptionPlans.merchantId, sql.placeholder('merchantId'))))
    .limit(1)
    .prepare('plan_with_last_transaction');
});

/**
 * What the plan status shows of a plan of this merchant and of its most recent transaction, in one
 * round trip (plan status: prepared; only the columns the view reads, each mapped on every request).
 */
export async function getPlanWithLastTransaction(db: Db, scope: { merchantId: string; planId: string }) {
  const [row] = await planWithLastTransactionQuery(db).execute(scope);
  return row;
}

/**
 * Moves a plan from one of `from` to new values, only if it is still in one of them (callers hold
 * the plan's row lock; the condition keeps the rule in the statement too). Undefined otherwise.
 */
export async function transitionPlan(
  db: Db,
  planId: string,
  from: readonly PlanRow['status'][],
  values: Partial<
    Pick<
      PlanRow,
      | 'status'
      | 'nextChargeDate'
      | 'renewalFailures'
      | 'cancelReason'
      | 'renewalCollection'
      | 'paymentMethodToken'
      | 'amount'
      | 'description'
      | 'scheduledAmount'
      | 'scheduledDescription'
      | 'scheduledFrom'
      | 'billingAnchorDay'
      | 'trialEndsAt'
      | 'trialNoticeAt'
      | 'cancelAt'
      | 'quantity'
      | 'scheduledQuantity'
      | 'termEndsAt'
      | 'resumesAt'
    >
  >,
): Promise<PlanRow | undefined> {
  return updateInStatus(db, subscriptionPlans, planId, from, values);
}

/**
 * ACTIVE plans renewed automatically, and TRIALING plans, whose next charge is due at `now`, oldest first, `limit` at a time after the
 * `after` cursor. Served by the partial index subscription_plans_due_idx. Returns the query
 * itself (awaited as usual), so the benchmark can EXPLAIN the very statement.
 */
export function findDuePlans(
  db: Db,
  { now, limit, after, merchantId }: { now: Date; limit: number; after?: { nextChargeDate: Date; id: string }; merchantId?: string },
) {
  return db
    .select({
      id: subscriptionPlans.id,
      merchantId: subscriptionPlans.merchantId,
      nextChargeDate: sql<Date>`${subscriptionPlans.nextChargeDate}`.mapWith(subscriptionPlans.nextChargeDate),
      renewalFailures: subscriptionPlans.renewalFailures,
      intervalUnit: subscriptionPlans.intervalUnit,
      intervalCount: subscriptionPlans.intervalCount,
    })
    .from(subscriptionPlans)
    .where(
      and(
        // A trial's end is charged as a renewal (docs/billing.md#trials).
        inArray(subscriptionPlans.status, ['ACTIVE', 'TRIALING']),
        // A plan collected by link is never charged (docs/billing.md#renewal-links).
        eq(subscriptionPlans.renewalCollection, 'AUTOMATIC'),
        lte(subscriptionPlans.nextChargeDate, now),
        // One merchant's plans for its test clock; otherwise those of merchants without one.
        clockScope(subscriptionPlans.merchantId, merchantId),
        afterDuePlan(after),
      ),
    )
    .orderBy(asc(subscriptionPlans.nextChargeDate), asc(subscriptionPlans.id))
    .limit(limit);
}

/**
 * Plans whose cancellation at the end of the period is due at `now` (docs/billing.md#cancel-at-the-end-of-the-period),
 * oldest first: of `merchantId` only (its test clock), else of every merchant without one.
 */
export function findPlansEndingBy(db: Db, { now, limit, merchantId }: { now: Date; limit: number; merchantId?: string }): Promise<string[]> {
  return findPlansDueBy(db, subscriptionPlans.cancelAt, ['ACTIVE', 'TRIALING', 'PAUSED'], { now, limit, merchantId });
}

/** Paused plans whose `resumesAt` has come (docs/billing.md#pause-until-a-date), oldest first. */
export function findPlansResumingBy(db: Db, { now, limit, merchantId }: { now: Date; limit: number; merchantId?: string }): Promise<string[]> {
  return findPlansDueBy(db, subscriptionPlans.resumesAt, ['PAUSED'], { now, limit, merchantId });
}

async function findPlansDueBy(
  db: Db,
  at: typeof subscriptionPlans.cancelAt | typeof subscriptionPlans.resumesAt,
  statuses: PlanRow['status'][],
  { now, limit, merchantId }: { now: Date; limit: number; merchantId?: string },
): Promise<string[]> {
  const rows = await db
    .select({ id: subscriptionPlans.id })
    .from(subscriptionPlans)
    .where(and(sql`${at} is not null`, inArray(subscriptionPlans.status, statuses), lte(at, now), clockScope(subscriptionPlans.merchantId, merchantId)))
    .orderBy(asc(at), asc(subscriptionPlans.id))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** A due plan a sweep has claimed: what its renewal attempt needs to be named. */
export interface ClaimedPlan {
  id: string;
  merchantId: string;
  nextChargeDate: Date;
  renewalFailures: number;
  intervalUnit: PlanRow['intervalUnit'];
  intervalCount: PlanRow['intervalCount'];
}

/**
 * Claims up to `limit` plans due at `now` for the sweep `claim` until `leaseMs` from the database's
 * clock, oldest first: none another sweep holds (a lease not yet run out, or a row locked by an
 * attempt), none of `exceptMerchants`; of `merchantId` only (its test clock), else of every merchant without one. Several instances share a renewal day this way, each
 * taking batches the others skip (docs/billing.md#renewals). Served by subscription_plans_due_idx.
 */
export async function claimDuePlans(
  db: Db,
  {
    now,
    limit,
    claim,
    leaseMs,
    merchantId,
    exceptMerchants = [],
  }: { now: Date; limit: number; claim: string; leaseMs: number; merchantId?: string; exceptMerchants?: string[] },
): Promise<ClaimedPlan[]> {
  const rows = await queryRows<{
    id: string;
    merchant_id: string;
    next_charge_date: Date | string;
    renewal_failures: number;
    interval_unit: PlanRow['intervalUnit'];
    interval_count: number | null;
  }>(
    db,
    sql`update subscription_plans p set sweep_claim = ${claim}, sweep_lease_until = now() + make_interval(secs => ${leaseMs / 1000})
      from (
        select id from subscription_plans
        where status in ('ACTIVE', 'TRIALING') and renewal_collection = 'AUTOMATIC' and next_charge_date <= ${now.toISOString()}::timestamptz
          and (sweep_lease_until is null or sweep_lease_until < now())
          and ${clockScope(subscriptionPlans.merchantId, merchantId)}
          ${exceptMerchants.length ? sql`and merchant_id <> all(${`{${exceptMerchants.join(',')}}`}::text[])` : sql``}
        order by next_charge_date
        limit ${limit}
        for update skip locked
      ) due
      where p.id = due.id
      returning p.id, p.merchant_id, p.next_charge_date, p.renewal_failures, p.interval_unit, p.interval_count`,
  );
  return rows.map((r) => ({
    id: r.id,
    merchantId: r.merchant_id,
    nextChargeDate: new Date(r.next_charge_date),
    renewalFailures: Number(r.renewal_failures),
    intervalUnit: r.interval_unit,
    intervalCount: r.interval_count === null ? null : Number(r.interval_count),
  }));
}

/** Gives back what the sweep `claim` holds, all or only `planIds`: a later sweep may take them at once. */
export async function releaseSweepClaims(db: Db, claim: string, planIds?: string[]): Promise<void> {
  await db
    .update(subscriptionPlans)
    .set({ sweepClaim: null, sweepLeaseUntil: null })
    .where(and(eq(subscriptionPlans.sweepClaim, claim), planIds ? inArray(subscriptionPlans.id, planIds) : undefined));
}

/**
 * A merchant's plans charged automatically (ACTIVE, TRIALING) whose next charge fell due by `now`:
 * what a suspension held back (docs/operations.md#suspending-a-merchant). Locked for the caller's transaction.
 */
export async function lockMerchantPlansDueBy(db: Db, { merchantId, now }: { merchantId: string; now: Date }): Promise<PlanRow[]> {
  return db
    .select()
    .from(subscriptionPlans)
    .where(
      and(
        eq(subscriptionPlans.merchantId, merchantId),
        inArray(subscriptionPlans.status, ['ACTIVE', 'TRIALING']),
        eq(subscriptionPlans.renewalCollection, 'AUTOMATIC'),
        lte(subscriptionPlans.nextChargeDate, now),
      ),
    )
    .orderBy(asc(subscriptionPlans.id))
    .for('update');
}

/**
 * TRIALING plans whose trial-end notice is due at `now`, soonest first (docs/billing.md#trials).
 * Served by the partial index subscription_plans_trial_notice_idx; each one sent clears its notice.
 */
export async function findTrialNoticesDue(db: Db, { now, limit, merchantId }: { now: Date; limit: number; merchantId?: string }): Promise<{ id: string }[]> {
  return db
    .select({ id: subscriptionPlans.id })
    .from(subscriptionPlans)
    .where(and(eq(subscriptionPlans.status, 'TRIALING'), lte(subscriptionPlans.trialNoticeAt, now), clockScope(subscriptionPlans.merchantId, merchantId)))
    .orderBy(asc(subscriptionPlans.trialNoticeAt), asc(subscriptionPlans.id))
    .limit(limit);
}

/** Plans after the cursor in (nextChargeDate, id) order, the sweeps' paging; no condition without one. */
export function afterDuePlan(after?: { nextChargeDate: Date; id: string }) {
  if (!after) return undefined;
  return or(
    gt(subscriptionPlans.nextChargeDate, after.nextChargeDate),
    and(eq(subscriptionPlans.nextChargeDate, after.nextChargeDate), gt(subscriptionPlans.id, after.id)),
  );
}

/**
 * The language the customer chose (the checkout's, or the manage page's `?lang=`): their e-mails
 * follow it. Not a change of the plan: its updatedAt stays.
 */
export async function setCustomerLang(db: Db, planId: string, lang: 'es' | 'en'): Promise<void> {
  await db.update(subscriptionPlans).set({ customerLang: lang }).where(eq(subscriptionPlans.id, planId));
}

/** Replaces the saved payment method renewals charge. */
/** Who the plan's later invoices are made out to (docs/einvoicing.md#the-buyer); null: the final consumer. */
export async function setPlanBuyer(
  db: Db,
  planId: string,
  buyer: { taxId: { type: (typeof ID_TYPES)[number]; number: string; dv: number | null }; legalName: string } | null,
): Promise<PlanRow> {
  const [row] = await db
    .update(subscriptionPlans)
    .set({
      customerTaxIdType: buyer?.taxId.type ?? null,
      customerTaxIdNumber: buyer?.taxId.number ?? null,
      customerTaxIdDv: buyer?.taxId.dv ?? null,
      customerLegalName: buyer?.legalName ?? null,
      updatedAt: sql`now()`,
    })
    .where(eq(subscriptionPlans.id, planId))
    .returning();
  return row!;
}

export async function setPaymentMethodToken(db: Db, planId: string, token: string): Promise<PlanRow> {
  const [row] = await db.update(subscriptionPlans).set({ paymentMethodToken: token, updatedAt: sql`now()` }).where(eq(subscriptionPlans.id, planId)).returning();
  return row!;
}

/**
 * How many of a merchant's open plans (pending, active, paused) carry an amount in cents that is
 * not whole pesos or is under `minimum`: what Wompi would refuse (lib/processors/wompi/amounts.ts).
 */
export async function countOpenPlansOffAmount(db: Db, merchantId: string, minimum: number): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(subscriptionPlans)
    .where(
      and(
        eq(subscriptionPlans.merchantId, merchantId),
        inArray(subscriptionPlans.status, [...OPEN_PLAN_STATUSES]),
        or(sql`${subscriptionPlans.amount} % 100 <> 0`, sql`${subscriptionPlans.amount} < ${minimum}`),
      ),
    );
  return row?.count ?? 0;
}
