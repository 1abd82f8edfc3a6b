import { randomBytes } from 'node:crypto';
import { cude, cufe, dianQrUrl, TECHNICAL_KEY_PATTERN } from '../lib/einvoicing/cufe';
import { bogotaIssueDateTime } from '../lib/einvoicing/dates';
import { nitCheckDigit } from '../lib/einvoicing/nit';
import { centsOf, DIAN_RULES, FieldErrors, isDate, isObject, itemsOf, processOptions, startKit, TEST_RANGE, type KitOptions } from './einvoice-double-kit';

// A local double of Alegra's e-provider API (docs/einvoicing.md#the-doubles), built only from the
// bodies and rules the project documents: a bearer token per account, the associated company in
// every body, our number inside the resolution we send with its technical key (a key that is not
// the company's is DIAN's rule 89; a company not enabled, 92), the totals Alegra requires even as 0,
// `taxPercentage` as a string, a number sent twice answered with rule 90 and the original CUFE, and a
// credit note that must cite an accepted invoice by prefix, number and CUFE. The CUFE is computed by
// lib/einvoicing. `npx tsx test/alegra-double.ts --port N [--latency-ms 200]`, then
// ALEGRA_API_URL=http://127.0.0.1:N/e-provider/col/v1 (ALEGRA_DOUBLE_ACCOUNT is registered).

export const ALEGRA_BASE_PATH = '/e-provider/col/v1';

export interface AlegraAccount {
  token: string;
  companyId: string;
  /** The associated company's NIT (without check digit) and the software PIN its notes use. */
  nit: string;
  softwarePin: string;
  /** The technical key DIAN gave the company's range: another key is rule 89. */
  technicalKey: string;
  /** false: the company has not enabled Alegra as its provider at DIAN (rule 92). */
  enabled: boolean;
}

export const ALEGRA_DOUBLE_ACCOUNT: AlegraAccount = {
  token: 'alegra-double-token',
  companyId: 'company-double-1',
  nit: '900559088',
  softwarePin: '12345',
  technicalKey: TEST_RANGE.technicalKey,
  enabled: true,
};

interface StoredDocument {
  id: string;
  kind: 'INVOICE' | 'CREDIT_NOTE';
  account: AlegraAccount;
  prefix: string;
  number: number;
  key: string;
  legalStatus: 'ACCEPTED' | 'REJECTED';
  government: { code: string; message: string; errorMessages: string[] };
  payable: number;
  buyerId: string;
  issueDate: string;
  issueTime: string;
  invoiceKey?: string;
}

const TAX_PERCENTAGES = /^(0|5|16|19)(\.\d{1,2})?$/;
const ID_TYPES = ['11', '12', '13', '21', '22', '31', '41', '42', '47', '50', '91'];
const rand = () => randomBytes(12).toString('hex');

export async function startAlegraDouble(options: KitOptions & { accounts?: AlegraAccount[] } = {}) {
  const accounts = new Map<string, AlegraAccount>();
  for (const a of options.accounts ?? [ALEGRA_DOUBLE_ACCOUNT]) accounts.set(a.token, a);
  const documents: StoredDocument[] = [];

  const kit = await startKit('Alegra', (req) => {
    if (!req.path.startsWith(ALEGRA_BASE_PATH)) return { status: 404, body: { code: 404, message: 'Not found' } };
    const path = req.path.slice(ALEGRA_BASE_PATH.length);
    const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    const account = bearer ? accounts.get(bearer) : undefined;
    if (!account) return { status: 401, body: { code: 401, message: 'Unauthorized' } };
    const route = /^\/(invoices|credit-notes)(?:\/([^/]+))?$/.exec(path);
    if (!route) return { status: 404, body: { code: 404, message: 'Not found' } };
    const kind = route[1] === 'invoices' ? 'INVOICE' : 'CREDIT_NOTE';
    if (req.method === 'POST' && !route[2]) return issue(account, kind, req.body);
    if (req.method === 'GET' && route[2]) {
      const doc = documents.find((d) => d.account === account && d.kind === kind && d.id === route[2]);
      return doc ? { status: 200, body: wrap(doc) } : { status: 404, body: { code: 404, message: 'El documento no existe' } };
    }
    if (req.method === 'GET') {
      const company = req.query.get('idCompany');
      if (company && company !== account.companyId) return { status: 404, body: { code: 404, message: 'La empresa no existe' } };
      const prefix = req.query.get('prefix');
      const number = req.query.get('number');
      if (number && prefix === null) return { status: 400, body: { code: 400, message: 'Para filtrar por número se debe enviar el prefijo' } };
      const found = documents.filter((d) => d.account === account && d.kind === kind && (prefix === null || d.prefix === prefix) && (number === null || String(d.number) === number));
      const limit = Number(req.query.get('limit') ?? 50);
      return { status: 200, body: { [kind === 'INVOICE' ? 'invoices' : 'creditNotes']: found.slice(0, limit).map(documentOf) } };
    }
    return { status: 405, body: { code: 405, message: 'Method not allowed' } };
  }, options, {
    addAccount: (account) => accounts.set((account as AlegraAccount).token, account as AlegraAccount),
    documents: () => documents.map((d) => ({ kind: d.kind, companyId: d.account.companyId, number: `${d.prefix}${d.number}`, legalStatus: d.legalStatus })),
  });

  function checkCommon(body: Record<string, unknown>, errors: FieldErrors, account: AlegraAccount) {
    const company = isObject(body.company) ? body.company : {};
    if (company.id !== account.companyId) errors.add('company.id', 'La empresa no existe o no está asociada al token');
    if (!Number.isSafeInteger(body.number) || (body.number as number) < 1) errors.add('number', 'El número es obligatorio y debe ser entero');
    const customer = isObject(body.customer) ? body.customer : null;
    let buyerId = '';
    if (!customer) errors.add('customer', 'El cliente es obligatorio');
    else {
      buyerId = String(customer.identificationNumber ?? '');
      if (typeof customer.name !== 'string' || !customer.name) errors.add('customer.name', 'El nombre es obligatorio');
      if (![1, 2].includes(customer.organizationType as number)) errors.add('customer.organizationType', 'Debe ser 1 o 2');
      if (!ID_TYPES.includes(String(customer.identificationType))) errors.add('customer.identificationType', 'Tipo de identificación inválido');
      if (!/^[A-Za-z0-9]{3,20}$/.test(buyerId)) errors.add('customer.identificationNumber', 'Identificación inválida');
      if (/^2+$/.test(buyerId) && buyerId !== '222222222222') errors.add('customer.identificationNumber', 'El consumidor final se identifica con 222222222222');
      if (customer.identificationType === '31' && String(customer.dv) !== String(/^\d+$/.test(buyerId) ? nitCheckDigit(buyerId) : '')) errors.add('customer.dv', 'El dígito de verificación no corresponde al NIT');
      if (typeof customer.regimeCode !== 'string') errors.add('customer.regimeCode', 'El régimen es obligatorio');
    }
    let subtotal = 0;
    let tax = 0;
    itemsOf(body, errors, 'Debe enviar al menos un ítem').forEach((item, i) => {
      if (typeof item.description !== 'string' || !item.description) errors.add(`items.${i}.description`, 'Obligatorio');
      if (typeof item.quantity !== 'number' || item.quantity <= 0) errors.add(`items.${i}.quantity`, 'Debe ser un número mayor que 0');
      if (typeof item.unitCode !== 'string') errors.add(`items.${i}.unitCode`, 'Obligatorio');
      const price = centsOf(item.price);
      const lineSubtotal = centsOf(item.subtotal);
      const lineTax = centsOf(item.taxAmount);
      const discount = item.discountAmount === undefined ? 0 : centsOf(item.discountAmount);
      if (typeof item.price !== 'number' || price === null) errors.add(`items.${i}.price`, 'Debe ser un número con máximo dos decimales');
      if (typeof item.subtotal !== 'number' || lineSubtotal === null) errors.add(`items.${i}.subtotal`, 'Debe ser un número con máximo dos decimales');
      if (typeof item.taxAmount !== 'number' || lineTax === null) errors.add(`items.${i}.taxAmount`, 'Debe ser un número con máximo dos decimales');
      if (discount === null) errors.add(`items.${i}.discountAmount`, 'Debe ser un número');
      if (price === null || lineSubtotal === null || lineTax === null || discount === null || typeof item.quantity !== 'number') return;
      if (Math.abs(Math.round(price * item.quantity) - discount - lineSubtotal) > 1) errors.add(`items.${i}.subtotal`, 'El subtotal debe ser cantidad × precio menos descuentos');
      subtotal += lineSubtotal;
      tax += lineTax;
      const taxes = Array.isArray(item.taxes) ? item.taxes : [];
      let taxSum = 0;
      taxes.forEach((t, j) => {
        const entry = isObject(t) ? t : {};
        if (entry.taxCode !== '01') errors.add(`items.${i}.taxes.${j}.taxCode`, 'Solo IVA (01)');
        if (typeof entry.taxPercentage !== 'string' || !TAX_PERCENTAGES.test(entry.taxPercentage)) errors.add(`items.${i}.taxes.${j}.taxPercentage`, 'Debe ser una cadena entre 0, 5, 16 y 19');
        const base = centsOf(entry.taxableAmount);
        const amount = centsOf(entry.taxAmount);
        if (base === null || amount === null) return errors.add(`items.${i}.taxes.${j}`, 'taxableAmount y taxAmount son números obligatorios');
        taxSum += amount;
        // DIAN's tolerance on a tax amount against its base × rate is ±2.00.
        if (typeof entry.taxPercentage === 'string' && Math.abs(Math.round((base * Number(entry.taxPercentage)) / 100) - amount) > 200) errors.add(`items.${i}.taxes.${j}.taxAmount`, 'No corresponde a la base por la tarifa');
      });
      if (taxSum !== lineTax) errors.add(`items.${i}.taxAmount`, 'Debe ser la suma de los impuestos del ítem');
    });
    const payments = Array.isArray(body.payments) ? body.payments : [];
    if (payments.length === 0) errors.add('payments', 'Debe enviar al menos un pago');
    payments.forEach((p, i) => {
      const payment = isObject(p) ? p : {};
      if (typeof payment.paymentForm !== 'string') errors.add(`payments.${i}.paymentForm`, 'Obligatorio');
      if (typeof payment.paymentMethod !== 'string') errors.add(`payments.${i}.paymentMethod`, 'Obligatorio');
    });
    const totals = isObject(body.totalAmounts) ? body.totalAmounts : null;
    const amounts: Record<string, number> = {};
    for (const field of ['grossTotal', 'taxableTotal', 'taxTotal', 'discountTotal', 'chargeTotal', 'advanceTotal', 'payableTotal']) {
      const value = totals ? centsOf(totals[field]) : null;
      if (value === null || typeof totals?.[field] !== 'number') errors.add(`totalAmounts.${field}`, 'Es obligatorio');
      else amounts[field] = value;
    }
    if (errors.ok) {
      if (amounts.grossTotal !== subtotal) errors.add('totalAmounts.grossTotal', 'Debe ser la suma de los subtotales');
      if (amounts.taxTotal !== tax) errors.add('totalAmounts.taxTotal', 'Debe ser la suma de los impuestos');
      const payable = amounts.grossTotal! + amounts.taxTotal! - amounts.discountTotal! + amounts.chargeTotal! - amounts.advanceTotal!;
      if (payable !== amounts.payableTotal) errors.add('totalAmounts.payableTotal', 'No corresponde a los totales');
    }
    return { lineExtension: subtotal, iva: tax, payable: amounts.payableTotal ?? 0, buyerId };
  }

  function issue(account: AlegraAccount, kind: 'INVOICE' | 'CREDIT_NOTE', raw: unknown) {
    const body = isObject(raw) ? raw : {};
    const errors = new FieldErrors();
    let prefix = '';
    let technicalKey = '';
    let invoice: StoredDocument | undefined;
    if (kind === 'INVOICE') {
      if (body.documentType !== '01') errors.add('documentType', 'Debe ser 01');
      const r = isObject(body.resolution) ? body.resolution : {};
      prefix = String(r.prefix ?? '');
      technicalKey = String(r.technicalKey ?? '');
      if (typeof r.resolutionNumber !== 'string') errors.add('resolution.resolutionNumber', 'Obligatorio');
      if (!/^[A-Za-z0-9]{0,4}$/.test(prefix)) errors.add('resolution.prefix', 'Hasta 4 caracteres alfanuméricos');
      if (!Number.isSafeInteger(r.minNumber) || !Number.isSafeInteger(r.maxNumber)) errors.add('resolution.minNumber', 'minNumber y maxNumber son obligatorios');
      if (!isDate(r.startDate) || !isDate(r.endDate)) errors.add('resolution.startDate', 'startDate y endDate en formato YYYY-MM-DD');
      if (!TECHNICAL_KEY_PATTERN.test(technicalKey)) errors.add('resolution.technicalKey', 'La clave técnica tiene 40 caracteres hexadecimales');
      if (Number.isSafeInteger(body.number) && ((body.number as number) < (r.minNumber as number) || (body.number as number) > (r.maxNumber as number))) errors.add('number', 'Fuera del rango de la resolución');
      const period = body.invoicePeriod;
      if (period !== undefined && (!isObject(period) || !isDate(period.startDate) || !isDate(period.endDate))) errors.add('invoicePeriod', 'startDate y endDate en formato YYYY-MM-DD');
    } else {
      if (body.documentType !== '91') errors.add('documentType', 'Debe ser 91');
      prefix = String(body.prefix ?? '');
      if (!/^[A-Za-z0-9]{0,4}$/.test(prefix)) errors.add('prefix', 'Hasta 4 caracteres alfanuméricos');
      if (!['1', '2', '3', '4', '5'].includes(String(body.conceptCode))) errors.add('conceptCode', 'Concepto inválido');
      const associated = Array.isArray(body.associatedDocuments) ? body.associatedDocuments : [];
      if (associated.length !== 1) errors.add('associatedDocuments', 'Una nota crédito referencia exactamente una factura');
      const cited = isObject(associated[0]) ? associated[0] : {};
      invoice = documents.find((d) => d.account === account && d.kind === 'INVOICE' && d.legalStatus === 'ACCEPTED' && d.prefix === cited.prefix && d.number === cited.number);
      if (!invoice || cited.uuid !== invoice.key || cited.documentType !== '01' || !isDate(cited.date)) {
        errors.add('associatedDocuments.0', 'Debe citar una factura aceptada por su prefijo, número, fecha y CUFE');
      }
    }
    const totals = checkCommon(body, errors, account);
    if (invoice && totals.buyerId !== invoice.buyerId) errors.add('customer.identificationNumber', 'El cliente debe ser el de la factura');
    if (!errors.ok) {
      const [field, messages] = Object.entries(errors.errors)[0]!;
      return { status: 400, body: { code: 400, message: `${field}: ${messages[0]}`, errors: Object.entries(errors.errors).map(([f, m]) => ({ code: f, message: m.join('; ') })) } };
    }
    const number = body.number as number;
    const previous = documents.find((d) => d.account === account && d.kind === kind && d.prefix === prefix && d.number === number && d.legalStatus === 'ACCEPTED');
    if (previous) {
      return { status: 200, body: wrap({ ...previous, id: rand(), legalStatus: 'REJECTED', government: { code: '90', message: DIAN_RULES['90']!, errorMessages: [`Regla: 90, Rechazo: ${DIAN_RULES['90']}`] } }) };
    }
    const at = bogotaIssueDateTime(kit.now());
    const fields = { number: `${prefix}${number}`, issueDate: at.date, issueTime: at.time, lineExtension: totals.lineExtension, iva: totals.iva, inc: 0, ica: 0, payable: totals.payable, supplierNit: account.nit, buyerId: totals.buyerId, environment: 2 as const };
    const doc: StoredDocument = {
      id: rand(),
      kind,
      account,
      prefix,
      number,
      key: kind === 'INVOICE' ? cufe({ ...fields, technicalKey }) : cude({ ...fields, softwarePin: account.softwarePin }),
      legalStatus: 'ACCEPTED',
      government: { code: '00', message: 'Procesado Correctamente', errorMessages: [] },
      payable: totals.payable,
      buyerId: totals.buyerId,
      issueDate: at.date,
      issueTime: at.time,
      ...(invoice ? { invoiceKey: invoice.key } : {}),
    };
    const dian = kit.takeDianFault();
    const reject = (rule: string, message?: string) => {
      doc.legalStatus = 'REJECTED';
      doc.government = { code: rule, message: message ?? DIAN_RULES[rule] ?? 'Documento rechazado', errorMessages: [`Regla: ${rule}, Rechazo: ${message ?? DIAN_RULES[rule] ?? 'Documento rechazado'}`] };
    };
    if (!account.enabled) reject('92');
    else if (kind === 'INVOICE' && technicalKey !== account.technicalKey) reject('89', `NIT ${account.nit} no autorizado a enviar documentos para emisor con NIT ${account.nit}`);
    else if (dian?.kind === 'dian') reject(dian.rule, dian.message);
    documents.push(doc);
    return { status: 201, body: wrap(doc) };
  }

  function documentOf(doc: StoredDocument) {
    return {
      id: doc.id,
      status: 'SENT',
      legalStatus: doc.legalStatus,
      [doc.kind === 'INVOICE' ? 'cufe' : 'cude']: doc.key,
      prefix: doc.prefix,
      number: doc.number,
      fullNumber: `${doc.prefix}${doc.number}`,
      governmentResponse: doc.government,
      xmlFileName: `${doc.prefix}${doc.number}.xml`,
      zipFileName: `${doc.prefix}${doc.number}.zip`,
      qrCodeContent: dianQrUrl(doc.key, 2),
      zip: `${kit.origin}/files/${doc.id}.zip`,
      errors: [],
    };
  }

  const wrap = (doc: StoredDocument) => ({ [doc.kind === 'INVOICE' ? 'invoice' : 'creditNote']: documentOf(doc) });

  return {
    ...kit,
    /** What ALEGRA_API_URL is set to. */
    url: `${kit.origin}${ALEGRA_BASE_PATH}`,
    documents,
    addAccount: (account: AlegraAccount) => void accounts.set(account.token, account),
  };
}

export type AlegraDouble = Awaited<ReturnType<typeof startAlegraDouble>>;

/** A fresh account on `double`, unique per call. */
export function alegraDoubleAccount(double: AlegraDouble, change: Partial<AlegraAccount> = {}): AlegraAccount {
  const id = rand();
  const account = { ...ALEGRA_DOUBLE_ACCOUNT, token: `token-${id}`, companyId: `company-${id}`, ...change };
  double.addAccount(account);
  return account;
}


if (process.argv[1]?.endsWith('alegra-double.ts')) {
  void startAlegraDouble(processOptions(process.argv)).then((double) => console.log(`Alegra double on ${double.url}`));
}
