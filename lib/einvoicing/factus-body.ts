import { DIAN_PAYMENT_MEANS, DIAN_TAX_ID_CODE, FINAL_CONSUMER_ID, FINAL_CONSUMER_NAME, type Buyer, type CreditNoteDraft, type InvoiceDraft } from './draft';
import { formatAmount, unitNetOf, type Line } from './money';

// What we send Factus API v2 (contract.test.ts holds it to fixtures). `items.*.price` is net of IVA and discounts.

const withEmail = (buyer: Buyer) => (buyer.email ? { email: buyer.email } : {});

export function factusCustomer(buyer: Buyer): Record<string, unknown> {
  const id = buyer.taxId;
  if (!id) {
    return { identification_document_code: '13', identification: FINAL_CONSUMER_ID, names: FINAL_CONSUMER_NAME, legal_organization_code: '2', tribute_code: 'ZZ', ...withEmail(buyer) };
  }
  if (id.type === 'NIT') {
    return {
      identification_document_code: DIAN_TAX_ID_CODE.NIT,
      identification: id.number,
      dv: String(id.dv),
      company: buyer.legalName,
      legal_organization_code: '1',
      tribute_code: '01',
      responsibilities: ['R-99-PN'],
      ...withEmail(buyer),
    };
  }
  return { identification_document_code: DIAN_TAX_ID_CODE[id.type], identification: id.number, names: buyer.legalName, legal_organization_code: '2', tribute_code: 'ZZ', ...withEmail(buyer) };
}

function factusItem(line: Line, index: number): Record<string, unknown> {
  return {
    code_reference: `line-${index + 1}`,
    name: line.description,
    quantity: `${line.quantity}.00`,
    ...(line.discountNet > 0 ? { discount_amount: formatAmount(line.discountNet) } : { discount_rate: '0.00' }),
    price: formatAmount(unitNetOf(line)),
    unit_measure_code: '94',
    standard_code: '999',
    taxes: line.iva === 'excluded' ? [{ code: '01', rate: '0.00', is_excluded: true }] : [{ code: '01', rate: `${line.iva}.00` }],
  };
}

/** A cent's difference from the charge goes in `cash_rounding_amount`. */
export function factusComputedTotal(lines: readonly Line[]): number {
  let total = 0;
  for (const line of lines) {
    const net = unitNetOf(line) * line.quantity - line.discountNet;
    total += net + (line.iva === 'excluded' ? 0 : Math.round((net * line.iva) / 100));
  }
  return total;
}

const signedAmount = (cents: number) => (cents < 0 ? `-${formatAmount(-cents)}` : formatAmount(cents));

function paymentDetails(draft: InvoiceDraft | CreditNoteDraft) {
  return [{ payment_form: '1', payment_method_code: DIAN_PAYMENT_MEANS[draft.paymentMethod], amount: formatAmount(draft.totals.payable) }];
}

export function factusInvoiceBody(draft: InvoiceDraft, numberingRangeId?: number | null): Record<string, unknown> {
  return {
    reference_code: draft.reference,
    ...(numberingRangeId ? { numbering_range_id: numberingRangeId } : {}),
    operation_type: '10',
    send_email: false,
    billing_period: { start_date: draft.period.start, end_date: draft.period.end },
    payment_details: paymentDetails(draft),
    cash_rounding_amount: signedAmount(draft.totals.payable - factusComputedTotal(draft.lines)),
    customer: factusCustomer(draft.buyer),
    items: draft.lines.map(factusItem),
  };
}

/** The same lines and buyer, citing the invoice by number. */
export function factusCreditNoteBody(draft: CreditNoteDraft): Record<string, unknown> {
  return {
    reference_code: draft.reference,
    correction_concept_code: draft.concept,
    customization_id: '20',
    bill_number: draft.invoice.number,
    payment_details: paymentDetails(draft),
    customer: factusCustomer(draft.buyer),
    items: draft.lines.map(factusItem),
  };
}
