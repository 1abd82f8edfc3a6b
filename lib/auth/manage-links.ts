import type { Db } from '@/db/client';
import { countManageLinkUse, findPlanByManageLink, insertManageLink } from '@/db/queries/manage-links';
import { type PlanRow, setCustomerLang } from '@/db/queries/plans';
import type { EmailKind } from '@/db/schema';
import { sha256Hex } from './secrets';
import { env } from '@/lib/env';
import { randomBase62 } from '@/lib/ids';
import type { Lang } from '@/lib/i18n/locale';

// The customer's way in: /manage/<token>, expiring; only a SHA-256 of the token is stored.

const MANAGE_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const MANAGE_TOKEN_PATTERN = /^mng_[0-9A-Za-z]{40}$/;

type ManageLinkSource = 'merchant' | EmailKind;

export interface ManageLink {
  url: string;
  expiresAt: Date;
}

/** 7 days by default. */
export async function createManageLink(
  db: Db,
  plan: Pick<PlanRow, 'id' | 'merchantId'>,
  { source, now = new Date(), ttlMs = MANAGE_LINK_TTL_MS }: { source: ManageLinkSource; now?: Date; ttlMs?: number },
): Promise<ManageLink> {
  const token = `mng_${randomBase62(40)}`;
  const expiresAt = new Date(now.getTime() + ttlMs);
  await insertManageLink(db, { tokenHash: sha256Hex(token), planId: plan.id, merchantId: plan.merchantId, source, expiresAt, createdAt: now });
  return { url: `${env().APP_URL}/manage/${token}`, expiresAt };
}

/** Null for a malformed, unknown or expired token. */
export async function findManagedPlan(
  db: Db,
  token: string,
  now: Date = new Date(),
): Promise<{ plan: PlanRow; merchantName: string; processorType: 'sandbox' | 'wompi'; wompiPublicKey: string | null } | null> {
  if (!MANAGE_TOKEN_PATTERN.test(token)) return null;
  return (await findPlanByManageLink(db, sha256Hex(token), now)) ?? null;
}

export async function recordManageLinkUse(db: Db, token: string, now: Date = new Date()): Promise<void> {
  await countManageLinkUse(db, sha256Hex(token), now);
}

/** Their e-mails follow this language (updatedAt stays). */
export async function recordCustomerLang(db: Db, plan: PlanRow, lang: Lang): Promise<void> {
  if (plan.customerLang === lang) return;
  await setCustomerLang(db, plan.id, lang);
}
