import { dianQrUrl, type DianEnvironment } from './cufe';
import { DIAN_PAYMENT_MEANS, DIAN_TAX_ID_CODE, FINAL_CONSUMER_ID, FINAL_CONSUMER_NAME, type Buyer, type CallerNumbering, type CreditNoteDraft, type InvoiceDraft } from './draft';
import { callProvider, readDianMessage, unreadable, type CallOptions } from './http';
import { amountNumber, unitNetOf, type Line, type Totals } from './money';
import { EInvoiceAuthError, EInvoiceRetryableError, type DianMessage, type DocumentLookup, type EInvoiceProvider, type IssueResult } from './provider';

// Alegra (docs/einvoicing.md#alegra): we number each document in the merchant's DIAN resolution; a
// number sent twice (DIAN rule 90) reads the issued document back.

export const ALEGRA_SANDBOX_URL = 'https://sandbox-api.alegra.com/e-provider/col/v1';
export const ALEGRA_PRODUCTION_URL = 'https://api.alegra.com/e-provider/col/v1';

export interface AlegraCredentials {
  token: string;
  companyId: string;
}

export function alegraCustomer(buyer: Buyer): Record<string, unknown> {
  const id = buyer.taxId;
  const email = buyer.email ? { email: buyer.email } : {};
  if (!id) return { name: FINAL_CONSUMER_NAME, organizationType: 2, identificationType: '13', identificationNumber: FINAL_CONSUMER_ID, regimeCode: 'R-99-PN', ...email };
  return {
    name: buyer.legalName,
    organizationType: id.type === 'NIT' ? 1 : 2,
    identificationType: DIAN_TAX_ID_CODE[id.type],
    identificationNumber: id.number,
    ...(id.type === 'NIT' ? { dv: String(id.dv) } : {}),
    regimeCode: 'R-99-PN',
    ...email,
  };
}

function alegraItem(line: Line): Record<string, unknown> {
  const taxes =
    line.iva === 'excluded'
      ? []
      : [{ taxCode: '01', taxPercentage: String(line.iva), taxableAmount: amountNumber(line.net), taxAmount: amountNumber(line.ivaAmount) }];
  return {
    description: line.description,
    quantity: line.quantity,
    unitCode: '94',
    price: amountNumber(unitNetOf(line)),
    ...(line.discountNet > 0 ? { discountAmount: amountNumber(line.discountNet) } : {}),
    subtotal: amountNumber(line.net),
    taxAmount: amountNumber(line.ivaAmount),
    taxes,
  };
}

function alegraTotals(totals: Totals): Record<string, unknown> {
  // Line discounts are inside each subtotal; discountTotal is document-level.
  return {
    grossTotal: amountNumber(totals.lineExtension),
    taxableTotal: amountNumber(totals.taxable),
    taxTotal: amountNumber(totals.iva),
    discountTotal: 0,
    chargeTotal: 0,
    advanceTotal: 0,
    payableTotal: amountNumber(totals.payable),
    currencyCode: 'COP',
  };
}

function numberingOf(draft: { numbering: CallerNumbering | null; kind: string }): CallerNumbering {
  if (!draft.numbering) throw new TypeError(`Alegra needs our number on every document (${draft.kind} draft without numbering)`);
  return draft.numbering;
}

export function alegraInvoiceBody(draft: InvoiceDraft, companyId: string): Record<string, unknown> {
  const numbering = numberingOf(draft);
  const r = numbering.resolution!;
  return {
    documentType: '01',
    number: numbering.number,
    company: { id: companyId },
    resolution: { resolutionNumber: r.number, prefix: r.prefix, minNumber: r.from, maxNumber: r.to, startDate: r.startDate, endDate: r.endDate, technicalKey: r.technicalKey },
    customer: alegraCustomer(draft.buyer),
    invoicePeriod: { startDate: draft.period.start, endDate: draft.period.end },
    items: draft.lines.map(alegraItem),
    payments: [{ paymentForm: '1', paymentMethod: DIAN_PAYMENT_MEANS[draft.paymentMethod] }],
    totalAmounts: alegraTotals(draft.totals),
  };
}

/** Our own consecutive, citing the invoice by prefix, number and CUFE. */
export function alegraCreditNoteBody(draft: CreditNoteDraft, companyId: string): Record<string, unknown> {
  const numbering = numberingOf(draft);
  const { invoice } = draft;
  return {
    documentType: '91',
    number: numbering.number,
    prefix: numbering.prefix,
    conceptCode: draft.concept,
    associatedDocuments: [{ date: invoice.issueDate, documentType: '01', prefix: invoice.prefix, number: Number(invoice.number.slice(invoice.prefix.length)), uuid: invoice.cufe }],
    company: { id: companyId },
    customer: alegraCustomer(draft.buyer),
    items: draft.lines.map(alegraItem),
    totalAmounts: alegraTotals(draft.totals),
    payments: [{ paymentForm: '1', paymentMethod: DIAN_PAYMENT_MEANS[draft.paymentMethod] }],
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : typeof v === 'number' ? String(v) : undefined);

type Parsed = IssueResult | { status: 'PENDING' } | { status: 'DUPLICATE'; cufe?: string };

function governmentMessages(doc: Record<string, unknown>): { rule: string; message: string; rejects: boolean }[] {
  const gov = isObject(doc.governmentResponse) ? doc.governmentResponse : {};
  const texts = Array.isArray(gov.errorMessages) ? gov.errorMessages.map((t) => (typeof t === 'string' ? t : JSON.stringify(t))) : [];
  const messages = texts.map((text) => readDianMessage(text, str(gov.code) ?? 'DIAN'));
  const code = str(gov.code);
  if (messages.length === 0 && code && code !== '00') messages.push({ rule: code, message: str(gov.message) ?? `DIAN answered ${code}`, rejects: true });
  return messages;
}

/** ACCEPTED → ISSUED; REJECTED → its rules, or DUPLICATE for rule 90. */
export function parseAlegraDocument(json: unknown, kind: 'INVOICE' | 'CREDIT_NOTE', environment: DianEnvironment): Parsed | null {
  const body = isObject(json) ? json : {};
  const doc = kind === 'INVOICE' ? body.invoice : (body.creditNote ?? body.credit_note);
  if (!isObject(doc)) return null;
  const messages = governmentMessages(doc);
  const key = str(doc.cufe) ?? str(doc.cude);
  const number = str(doc.fullNumber) ?? (str(doc.number) ? `${str(doc.prefix) ?? ''}${str(doc.number)}` : undefined);
  const toMessage = ({ rule, message }: { rule: string; message: string }): DianMessage => ({ rule, message });
  if (doc.legalStatus === 'ACCEPTED' && key && number && str(doc.id)) {
    const qr = str(doc.qrCodeContent);
    return {
      status: 'ISSUED',
      number,
      cufe: key,
      qrUrl: qr && /^https:\/\//.test(qr) ? qr : dianQrUrl(key, environment),
      providerId: str(doc.id)!,
      warnings: messages.filter((m) => !m.rejects).map(toMessage),
    };
  }
  if (doc.legalStatus === 'REJECTED') {
    if (messages.some((m) => m.rule === '90')) return { status: 'DUPLICATE', ...(key ? { cufe: key } : {}) };
    const rejections = messages.filter((m) => m.rejects);
    return { status: 'REJECTED', errors: (rejections.length > 0 ? rejections : [{ rule: 'DIAN', message: 'DIAN rejected the document without a reason' }]).map(toMessage) };
  }
  return { status: 'PENDING' };
}

/** `{ message, code }`, sometimes with a list of errors. */
function refusal(json: unknown, status: number): DianMessage[] {
  const body = isObject(json) ? json : {};
  const code = str(body.code) ?? String(status);
  const errors = Array.isArray(body.errors) ? body.errors : [];
  if (errors.length > 0) return errors.map((e) => ({ rule: isObject(e) ? (str(e.code) ?? code) : code, message: isObject(e) ? (str(e.message) ?? JSON.stringify(e)) : String(e) }));
  return [{ rule: code, message: str(body.message) ?? `Alegra answered HTTP ${status}` }];
}

interface AlegraOptions extends CallOptions {
  baseUrl: string;
  credentials: AlegraCredentials;
  environment: DianEnvironment;
}

export function createAlegraProvider(options: AlegraOptions): EInvoiceProvider {
  const { baseUrl, credentials, environment } = options;
  const headers = (json: boolean) => ({ Accept: 'application/json', Authorization: `Bearer ${credentials.token}`, ...(json ? { 'Content-Type': 'application/json' } : {}) });
  const call = (method: 'GET' | 'POST', path: string, body?: unknown) =>
    callProvider('Alegra', `${baseUrl}${path}`, { method, headers: headers(body !== undefined), ...(body === undefined ? {} : { body: JSON.stringify(body) }) }, { ...options, passStatuses: [400, 404, 409, 422] });
  const route = (kind: 'INVOICE' | 'CREDIT_NOTE') => (kind === 'INVOICE' ? '/invoices' : '/credit-notes');
  const listKey = (kind: 'INVOICE' | 'CREDIT_NOTE') => (kind === 'INVOICE' ? 'invoices' : 'creditNotes');

  async function find(lookup: DocumentLookup): Promise<Parsed | null> {
    if (lookup.providerId) {
      const reply = await call('GET', `${route(lookup.kind)}/${encodeURIComponent(lookup.providerId)}`);
      if (reply.status === 404) return null;
      const parsed = parseAlegraDocument(reply.json, lookup.kind, environment);
      if (!parsed) throw unreadable('Alegra', reply.status);
      return parsed;
    }
    const match = lookup.number ? /^([A-Za-z0-9]*?)(\d+)$/.exec(lookup.number) : null;
    if (!match) return null;
    const query = new URLSearchParams({ idCompany: credentials.companyId, prefix: match[1] ?? '', number: match[2] ?? '', limit: '1' });
    const reply = await call('GET', `${route(lookup.kind)}?${query.toString()}`);
    if (reply.status === 404) return null;
    const list = isObject(reply.json) ? reply.json[listKey(lookup.kind)] : undefined;
    if (!Array.isArray(list)) throw unreadable('Alegra', reply.status);
    if (list.length === 0) return null;
    return parseAlegraDocument({ [lookup.kind === 'INVOICE' ? 'invoice' : 'creditNote']: list[0] }, lookup.kind, environment);
  }

  async function issue(kind: 'INVOICE' | 'CREDIT_NOTE', draft: InvoiceDraft | CreditNoteDraft, body: Record<string, unknown>): Promise<IssueResult> {
    const numbering = numberingOf(draft);
    const number = `${numbering.prefix}${numbering.number}`;
    const reply = await call('POST', route(kind), body);
    if (reply.status === 400 || reply.status === 422) return { status: 'REJECTED', errors: refusal(reply.json, reply.status) };
    const parsed = reply.status === 409 ? ({ status: 'DUPLICATE' } as const) : parseAlegraDocument(reply.json, kind, environment);
    if (!parsed) throw unreadable('Alegra', reply.status);
    if (parsed.status === 'DUPLICATE') {
      // Processed before (a retry after a lost answer): read back what was issued.
      const existing = await find({ kind, reference: draft.reference, number });
      if (existing?.status === 'ISSUED') return existing;
      throw new EInvoiceRetryableError(`Alegra says ${number} was already processed but does not show it yet`);
    }
    if (parsed.status === 'PENDING') throw new EInvoiceRetryableError('DIAN has not answered for the document yet; the same number is sent again later');
    return parsed;
  }

  return {
    kind: 'alegra',
    numbering: 'caller',
    async checkCredentials() {
      const reply = await call('GET', `/invoices?${new URLSearchParams({ idCompany: credentials.companyId, limit: '1' }).toString()}`);
      if (reply.status === 400 || reply.status === 404 || reply.status === 422) throw new EInvoiceAuthError(`Alegra does not know company ${credentials.companyId} for this token (HTTP ${reply.status})`);
      if (reply.status !== 200) throw unreadable('Alegra', reply.status);
    },
    issueInvoice: (draft) => issue('INVOICE', draft, alegraInvoiceBody(draft, credentials.companyId)),
    issueCreditNote: (draft) => issue('CREDIT_NOTE', draft, alegraCreditNoteBody(draft, credentials.companyId)),
    async findDocument(lookup) {
      const found = await find(lookup);
      return found && (found.status === 'ISSUED' || found.status === 'REJECTED') ? found : null;
    },
  };
}
