// What e-invoicing tells the merchant's owners (docs/einvoicing.md#notices): an invoice the provider
// did not take in 72 hours, and a DIAN numbering range nearly used or about to expire. E-mails are
// written in the caller's unit of work; each is sent once (a FAILED notice at most once a day), and
// the portal shows the range's state on every page.

import type { Db } from '@/db/client';
import { merchantEmailSent } from '@/db/queries/emails';
import { getMerchantForUpdate, type MerchantRow } from '@/db/queries/merchants';
import { merchantOwnerRows } from '@/db/queries/users';
import { renderAccountEmail } from '@/lib/email/account';
import { queueMerchantEmail } from '@/lib/email/record';
import type { Resolution } from '@/lib/einvoicing/draft';
import { bogotaDate } from '@/lib/einvoicing/dates';
import { env } from '@/lib/env';
import { fill, formatLongDate } from '@/lib/i18n/format';
import { LANG_TAG, type Lang } from '@/lib/i18n/locale';
import type { Outbox } from '@/lib/outbox';
import enCatalog from './messages/notices.en.json';
import es from './messages/notices.es.json';
import { openSettings } from './settings';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Warn when this share of the range is used, or this many days before it expires. */
const USED_SHARE = 0.9;
const DAYS_BEFORE_EXPIRY = 30;

export type RangeWarning =
  | { kind: 'usage'; prefix: string; used: number; total: number; left: number }
  | { kind: 'expiry'; prefix: string; endDate: string; daysLeft: number };

/** What a range (`from`–`to`, valid to `endDate`) warns of, with `next` the number we give next and `today` Bogotá's. */
export function rangeWarnings(range: Pick<Resolution, 'prefix' | 'from' | 'to' | 'endDate'>, next: number, today: string): RangeWarning[] {
  const total = range.to - range.from + 1;
  const used = Math.min(Math.max(next - range.from, 0), total);
  const daysLeft = Math.round((Date.parse(range.endDate) - Date.parse(today)) / DAY_MS);
  return [
    ...(used >= USED_SHARE * total ? [{ kind: 'usage' as const, prefix: range.prefix, used, total, left: total - used }] : []),
    ...(daysLeft <= DAYS_BEFORE_EXPIRY ? [{ kind: 'expiry' as const, prefix: range.prefix, endDate: range.endDate, daysLeft }] : []),
  ];
}

const en: typeof es = enCatalog;
const CATALOGS = { es, en };

/** The warning in the portal's words, with what to do. */
export function rangeWarningText(warning: RangeWarning, lang: Lang): string {
  const t = CATALOGS[lang];
  const name = warning.prefix ? fill(t.prefixed, { prefix: warning.prefix }) : t.unprefixed;
  if (warning.kind === 'usage') {
    const said = warning.left === 0 ? fill(t.exhausted, { name }) : fill(t.usage, { name, percent: Math.floor((100 * warning.used) / warning.total), left: warning.left.toLocaleString(LANG_TAG[lang]) });
    return `${said} ${t.fix}`;
  }
  const date = formatLongDate(Date.parse(`${warning.endDate}T12:00:00-05:00`), lang);
  return `${fill(warning.daysLeft < 0 ? t.expired : t.expiry, { name, date, days: warning.daysLeft })} ${t.fix}`;
}

/** The merchant's range warnings now (Alegra, where we number; Factus keeps the range itself). */
/** The portal banner's warnings for a merchant's row (Alegra numbers its own invoices; Factus does). */
export function merchantRangeWarnings(merchant: MerchantRow, now = new Date()): RangeWarning[] {
  if (merchant.einvoiceProvider !== 'alegra' || !merchant.einvoiceSecrets || merchant.einvoiceNextNumber === null) return [];
  const { resolution } = openSettings(merchant.einvoiceSecrets, merchant.id);
  return resolution ? rangeWarnings(resolution, merchant.einvoiceNextNumber, bogotaDate(now)) : [];
}

// The owners' e-mails are in Spanish, as the account e-mails are.
async function tellOwners(tx: Db, outbox: Outbox, merchantId: string, subject: string, lines: string[], now: Date): Promise<void> {
  const rendered = renderAccountEmail({ subject, lines, action: { label: es.open, url: `${env().APP_URL}/portal/invoices` } });
  for (const owner of await merchantOwnerRows(tx, merchantId)) {
    await queueMerchantEmail(tx, outbox, { merchantId, planId: null, transactionId: null, kind: 'einvoice_notice', toAddress: owner.email, ...rendered, createdAt: now });
  }
}

/**
 * Whether a notice was already written, asked under the merchant's row lock: two issuers finishing
 * at once are serialized here, and the second sees the first's e-mail once it has committed.
 */
async function alreadyTold(tx: Db, merchantId: string, subject: string, since?: Date): Promise<boolean> {
  await getMerchantForUpdate(tx, merchantId);
  return merchantEmailSent(tx, { merchantId, kind: 'einvoice_notice', subject, since });
}

/** After an invoice numbered in `range` (up to `number`): each warning it newly reaches, once per range. */
export async function noteRangeUse(tx: Db, outbox: Outbox, merchantId: string, range: Resolution, number: number, now: Date): Promise<void> {
  for (const warning of rangeWarnings(range, number + 1, bogotaDate(now))) {
    const subject = fill(warning.kind === 'usage' ? es.usageSubject : es.expirySubject, { prefix: range.prefix, resolution: range.number });
    if (await alreadyTold(tx, merchantId, subject)) continue;
    await tellOwners(tx, outbox, merchantId, subject, [rangeWarningText(warning, 'es')], now);
  }
}

/** An invoice became FAILED: the owners hear of it, at most once a day however many fail. */
export async function noteInvoiceFailed(tx: Db, outbox: Outbox, merchantId: string, lastError: string, now: Date): Promise<void> {
  if (await alreadyTold(tx, merchantId, es.failedSubject, new Date(now.getTime() - DAY_MS))) return;
  await tellOwners(tx, outbox, merchantId, es.failedSubject, [es.failed, fill(es.lastError, { error: lastError }), es.failedFix], now);
}
