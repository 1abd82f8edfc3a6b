import type { Db } from '@/db/client';
import { getEInvoicingOf } from '@/db/queries/invoices';
import { lockPlan, type PlanRow, setPlanBuyer } from '@/db/queries/plans';
import { ApiError } from '@/lib/api/errors';
import type { TaxId } from '@/lib/einvoicing/draft';
import { readTaxId, type TaxIdProblem } from '@/lib/einvoicing/tax-id';
import { firstParam, type SearchParams } from '@/lib/search-params';
import { inTransaction } from '@/lib/unit-of-work';

// "Factura a nombre de…" (docs/einvoicing.md#the-buyer): the customer names who the invoices are
// made out to, on the hosted page before paying and on the manage page for later invoices. Both
// are plain form posts: read here with the API's rules for `customer.taxId`, and answered back to
// the page with a code in its query (never the document itself).

export interface PlanBuyer {
  taxId: TaxId;
  legalName: string;
}

/** The forms' field names. */
export const BUYER_FIELDS = { type: 'taxIdType', number: 'taxIdNumber', legalName: 'legalName' } as const;
export type BuyerField = (typeof BUYER_FIELDS)[keyof typeof BUYER_FIELDS];

export type BuyerProblem = TaxIdProblem | 'name_required' | 'name_long';

/** What a form post did: saved, removed, refused for a field, or not taken at all. */
export const BUYER_OUTCOMES = ['saved', 'removed', 'type', 'required', 'final_consumer', 'nit', 'check_digit', 'cc', 'document', 'name_required', 'name_long', 'unavailable', 'rate_limited', 'form'] as const;
export type BuyerOutcome = (typeof BUYER_OUTCOMES)[number];

const NAME_MAX = 200;

/** The field a refusal names; null for an outcome that is not about one field. */
export function buyerFieldOf(outcome: BuyerOutcome): BuyerField | null {
  if (outcome === 'type') return BUYER_FIELDS.type;
  if (outcome === 'name_required' || outcome === 'name_long') return BUYER_FIELDS.legalName;
  if (outcome === 'required' || outcome === 'final_consumer' || outcome === 'nit' || outcome === 'check_digit' || outcome === 'cc' || outcome === 'document') return BUYER_FIELDS.number;
  return null;
}

export type BuyerReading = { ok: true; buyer: PlanBuyer } | { ok: false; problem: BuyerProblem; expected?: number };

/** The posted document and name, checked as the API checks `customer.taxId` (and a name always required). */
export function readBuyerForm(field: (name: BuyerField) => string): BuyerReading {
  const read = readTaxId(field(BUYER_FIELDS.type), field(BUYER_FIELDS.number));
  if (!read.ok) return read;
  const legalName = field(BUYER_FIELDS.legalName).trim().replace(/\s+/g, ' ');
  if (legalName === '') return { ok: false, problem: 'name_required' };
  if (legalName.length > NAME_MAX) return { ok: false, problem: 'name_long' };
  return { ok: true, buyer: { taxId: read.taxId, legalName } };
}

/** The query a refused or done form comes back with: the outcome, and a NIT's right check digit. */
export function buyerQuery(outcome: BuyerOutcome, expected?: number): { buyer: BuyerOutcome } | { buyer: BuyerOutcome; dv: string } {
  return { buyer: outcome, ...(expected !== undefined ? { dv: String(expected) } : {}) };
}

/** The outcome a page shows, read from its query; null for none. */
export function buyerOutcomeOf(query: SearchParams): { outcome: BuyerOutcome; dv: number | null } | null {
  const value = firstParam(query.buyer);
  if (!value || !(BUYER_OUTCOMES as readonly string[]).includes(value)) return null;
  const dv = firstParam(query.dv);
  return { outcome: value as BuyerOutcome, dv: dv && /^\d$/.test(dv) ? Number(dv) : null };
}

/** The plan's buyer as the forms show it; null: the final consumer. */
export function planBuyerOf(plan: PlanRow): PlanBuyer | null {
  if (!plan.customerTaxIdType || !plan.customerTaxIdNumber) return null;
  const dv = plan.customerTaxIdType === 'NIT' ? plan.customerTaxIdDv : null;
  const name = plan.customerLegalName ?? [plan.customerFirstName, plan.customerLastName].filter(Boolean).join(' ');
  return { taxId: { type: plan.customerTaxIdType, number: plan.customerTaxIdNumber, dv }, legalName: name };
}

/** Whether the merchant invoices: the forms are offered, and taken, only then. */
export async function invoicesOn(db: Db, merchantId: string): Promise<boolean> {
  return Boolean((await getEInvoicingOf(db, merchantId))?.provider);
}

/**
 * Sets (or, with null, removes) who the plan's invoices are made out to, under the plan's lock,
 * while its status is one of `statuses`; an invoice already written keeps the buyer it was written
 * with. Refused (409) once the plan moved on, or when its merchant does not invoice.
 */
export async function changePlanBuyer(
  db: Db,
  { planId, statuses, buyer }: { planId: string; statuses: readonly PlanRow['status'][]; buyer: PlanBuyer | null },
): Promise<PlanRow> {
  return inTransaction(db, async (tx) => {
    const plan = await lockPlan(tx, planId);
    if (!statuses.includes(plan.status)) throw new ApiError('conflict', `The buyer of a ${plan.status} plan cannot be changed`);
    if (!(await invoicesOn(tx, plan.merchantId))) throw new ApiError('conflict', 'This merchant does not issue electronic invoices');
    return setPlanBuyer(tx, plan.id, buyer);
  });
}
