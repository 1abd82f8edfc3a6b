import { and, asc, eq, gt, isNotNull, or, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { type Db, preparedFor } from '../client';
import { checkViolation } from '../errors';
import { apiKeys, merchants, renewalLinks, subscriptionPlans } from '../schema';

export type MerchantRow = typeof merchants.$inferSelect;

export async function insertMerchantWithKey(
  db: Db,
  values: { merchant: typeof merchants.$inferInsert; apiKey: string; secretHash: string },
  /** More writes of the same transaction (the audit entry of who created it). */
  also?: (tx: Db, row: MerchantRow) => Promise<void>,
): Promise<MerchantRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(merchants).values(values.merchant).returning();
    await tx.insert(apiKeys).values({ key: values.apiKey, merchantId: values.merchant.id, secretHash: values.secretHash });
    await also?.(tx, row!);
    return row!;
  });
}

/** Writes merchant columns as they are (lib/merchants/merchants.ts updateMerchant checks and maps its input). */
export async function updateMerchantRow(
  db: Db,
  id: string,
  patch: Partial<
    Pick<
      MerchantRow,
      | 'name'
      | 'status'
      | 'webhookUrl'
      | 'webhookSecret'
      | 'webhookSecretPrevious'
      | 'webhookSecretRolledUntil'
      | 'allowedDomains'
      | 'processorType'
      | 'wompiPublicKey'
      | 'wompiSecrets'
      | 'webhookEventTypes'
      | 'reminderDays'
      | 'graceDays'
      | 'renewalLadder'
      | 'apiVersion'
      | 'webhookRetries'
      | 'webhookDisabledAt'
      | 'webhookFailingSince'
      | 'einvoiceProvider'
      | 'einvoiceIva'
      | 'einvoiceSecrets'
      | 'einvoiceNextNumber'
    >
  >,
): Promise<MerchantRow | undefined | 'retries_without_url'> {
  try {
    const [row] = await db
      .update(merchants)
      .set({ ...patch, updatedAt: sql`now()` })
      .where(eq(merchants.id, id))
      .returning();
    return row;
  } catch (error) {
    // The database holds retries to a merchant with a URL (merchants_webhook_retries_check).
    if (checkViolation(error) === 'merchants_webhook_retries_check') return 'retries_without_url';
    throw error;
  }
}

export async function countMerchants(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(merchants);
  return row?.n ?? 0;
}

/** A merchant without any API key yet (portal sign-up: its first key is made, and shown, in the portal). */
export async function insertMerchant(db: Db, merchant: typeof merchants.$inferInsert): Promise<MerchantRow> {
  const [row] = await db.insert(merchants).values(merchant).returning();
  return row!;
}

/** Removes a merchant that nothing refers to yet (a sign-up whose user could not be created). */
export async function deleteUnusedMerchant(db: Db, id: string): Promise<void> {
  await db.delete(merchants).where(eq(merchants.id, id));
}

/** The merchant behind a token of `table` (its `token` column), prepared as `name`. */
function allowedDomainsQuery(table: typeof subscriptionPlans | typeof renewalLinks, token: PgColumn, name: string) {
  return preparedFor((db) =>
    db
      .select({ allowedDomains: merchants.allowedDomains, processorType: merchants.processorType, wompiPublicKey: merchants.wompiPublicKey })
      .from(table)
      .innerJoin(merchants, eq(merchants.id, table.merchantId))
      .where(eq(token, sql.placeholder('token')))
      .limit(1)
      .prepare(name),
  );
}

const allowedDomainsByTokenQuery = allowedDomainsQuery(subscriptionPlans, subscriptionPlans.checkoutToken, 'allowed_domains_by_token');
/** The same for a renewal link's token (docs/billing.md#renewal-links), paid on the same page. */
const allowedDomainsByRenewalTokenQuery = allowedDomainsQuery(renewalLinks, renewalLinks.token, 'allowed_domains_by_renewal_token');

/**
 * The embed allow-list of the merchant behind a checkout token, and its Wompi public key when it
 * charges through Wompi (the page's CSP names that Wompi origin). Every checkout page view: prepared.
 */
export async function getAllowedDomainsByToken(
  db: Db,
  token: string,
): Promise<{ allowedDomains: string[]; wompiPublicKey: string | null } | undefined> {
  // A plan's token first, as the page looks it up; a renewal link's only when no plan has it.
  const [plan] = await allowedDomainsByTokenQuery(db).execute({ token });
  const row = plan ?? (await allowedDomainsByRenewalTokenQuery(db).execute({ token }))[0];
  return row && { allowedDomains: row.allowedDomains, wompiPublicKey: row.processorType === 'wompi' ? row.wompiPublicKey : null };
}

/** The merchant's name, as its customers' e-mails say it. */
export async function getMerchantName(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db.select({ name: merchants.name }).from(merchants).where(eq(merchants.id, id));
  return row?.name;
}

/** What a settlement's records say of the merchant: its name (e-mails) and e-invoicing settings (invoices). Prepared: a renewal runs it (docs/performance.md#a-renewals-statements-prepared). */
export async function getMerchantFacts(db: Db, id: string) {
  const [row] = await db
    .select({ name: merchants.name, einvoiceProvider: merchants.einvoiceProvider, einvoiceIva: merchants.einvoiceIva })
    .from(merchants)
    .where(eq(merchants.id, id))
    .prepare('merchant_facts')
    .execute();
  return row;
}

export type MerchantFacts = NonNullable<Awaited<ReturnType<typeof getMerchantFacts>>>;

/** The lifecycle event types the merchant chose to receive (docs/customers.md#lifecycle-events). */
/** The events the merchant chose and its pinned API version: what writing a lifecycle event needs (docs/api.md#versioning). */
export async function getLifecycleEventSettings(db: Db, id: string) {
  const [row] = await db.select({ types: merchants.webhookEventTypes, apiVersion: merchants.apiVersion }).from(merchants).where(eq(merchants.id, id));
  return row;
}

/** A merchant's status alone (ACTIVE or INACTIVE), or undefined for an unknown id. */
export async function getMerchantStatus(db: Db, id: string): Promise<MerchantRow['status'] | undefined> {
  const [row] = await db.select({ status: merchants.status }).from(merchants).where(eq(merchants.id, id)).limit(1);
  return row?.status;
}

/** The merchant, its row locked for the rest of the caller's transaction. */
export async function getMerchantForUpdate(db: Db, id: string): Promise<MerchantRow | undefined> {
  const [row] = await db.select().from(merchants).where(eq(merchants.id, id)).for('update');
  return row;
}

export async function getMerchant(db: Db, id: string): Promise<MerchantRow | undefined> {
  const [row] = await db.select().from(merchants).where(eq(merchants.id, id)).limit(1);
  return row;
}

/** The next `limit` merchants after `after` (by id) holding a sealed secret, locked for the caller's transaction. */
export async function lockSealedSecretsAfter(db: Db, after: string, limit: number) {
  return db
    .select({ id: merchants.id, wompiSecrets: merchants.wompiSecrets, einvoiceSecrets: merchants.einvoiceSecrets })
    .from(merchants)
    .where(and(gt(merchants.id, after), or(isNotNull(merchants.wompiSecrets), isNotNull(merchants.einvoiceSecrets))))
    .orderBy(asc(merchants.id))
    .limit(limit)
    .for('update');
}

/** Writes re-sealed values alone: the settings did not change, so neither does `updatedAt`. */
export async function writeSealedSecrets(db: Db, id: string, values: Partial<Pick<MerchantRow, 'wompiSecrets' | 'einvoiceSecrets'>>): Promise<void> {
  await db.update(merchants).set(values).where(eq(merchants.id, id));
}
