import { randomBytes } from 'node:crypto';
import { cude, cufe, dianQrUrl } from '../lib/einvoicing/cufe';
import { bogotaIssueDateTime } from '../lib/einvoicing/dates';
import { formatAmount } from '../lib/einvoicing/money';
import { nitCheckDigit } from '../lib/einvoicing/nit';
import { centsOf, DIAN_RULES, FieldErrors, isDate, isObject, itemsOf, processOptions, startKit, TEST_RANGE, type KitOptions } from './einvoice-double-kit';

// A local double of Factus' API v2 (docs/einvoicing.md#the-doubles), built only from the bodies
// and rules the project documents: OAuth password grant (form) for a bearer token that expires,
// `reference_code` idempotency (a repeat answers the same document), NET item prices (the payments
// must equal Factus' own total, so a gross price is refused), DIAN's codes, a rejected document
// that blocks new ones until deleted, DIAN rejections with their rules, rule 90, and numbers in
// DIAN's test range with the CUFE computed by lib/einvoicing. Faults are scripted through the kit.
// `npx tsx test/factus-double.ts --port N [--latency-ms 200]`, then FACTUS_API_URL=http://127.0.0.1:N
// (the account in FACTUS_DOUBLE_ACCOUNT is registered).

export interface FactusAccount {
  clientId: string;
  clientSecret: string;
  username: string;
  password: string;
  /** The merchant's NIT (without check digit). */
  nit: string;
  softwarePin: string;
  numberingRangeId: number;
}

/** The account a double started as a process knows. */
export const FACTUS_DOUBLE_ACCOUNT: FactusAccount = {
  clientId: '9dd1d5bc-double-client',
  clientSecret: 'factus-double-secret',
  username: 'sandbox@factus.double',
  password: 'sandbox-password',
  nit: '900373076',
  softwarePin: '12345',
  numberingRangeId: 8,
};

interface StoredDocument {
  kind: 'INVOICE' | 'CREDIT_NOTE';
  account: FactusAccount;
  reference: string;
  number: string;
  key: string;
  validated: boolean;
  errors: Record<string, string>;
  total: number;
  buyerId: string;
  issueDate: string;
  /** A credit note: the invoice it cites. */
  billNumber?: string;
  body: Record<string, unknown>;
}

const TOKEN_SECONDS = 600;
const PAYMENT_FORMS = ['1', '2'];
const PAYMENT_METHODS = ['10', '42', '47', '48', '49', 'ZZZ'];
const DOCUMENT_CODES = ['11', '12', '13', '21', '22', '31', '41', '42', '47', '50', '91'];
const TAX_RATES = ['19.00', '5.00', '0.00'];
const CONCEPTS = ['1', '2', '3', '4', '5'];

const rand = () => randomBytes(12).toString('hex');

export async function startFactusDouble(options: KitOptions & { accounts?: FactusAccount[] } = {}) {
  const accounts = new Map<string, FactusAccount>();
  for (const a of options.accounts ?? [FACTUS_DOUBLE_ACCOUNT]) accounts.set(a.clientId, a);
  const tokens = new Map<string, { account: FactusAccount; expiresAt: number }>();
  const documents: StoredDocument[] = [];
  const counters = new Map<FactusAccount, { bill: number; note: number }>();

  const kit = await startKit('Factus', (req) => {
    if (req.method === 'POST' && req.path === '/oauth/token') return token(req.body, req.headers['content-type']);
    const auth = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''));
    const session = auth ? tokens.get(auth[1]!) : undefined;
    if (!session || session.expiresAt <= kit.now().getTime()) return { status: 401, body: { message: 'Unauthenticated.' } };
    const account = session.account;
    const route = /^\/v2\/(bills|credit-notes)(?:\/(validate|destroy\/reference\/[^/]+|[^/]+))?$/.exec(req.path);
    if (!route) return { status: 404, body: { message: 'Ruta no encontrada' } };
    const kind = route[1] === 'bills' ? 'INVOICE' : 'CREDIT_NOTE';
    const rest = route[2];
    if (req.method === 'POST' && rest === 'validate') return validate(account, kind, req.body);
    if (req.method === 'GET' && !rest) {
      const reference = req.query.get('filter[reference_code]');
      const found = documents.filter((d) => d.account === account && d.kind === kind && (!reference || d.reference === reference));
      return { status: 200, body: { status: 'OK', message: 'Solicitud exitosa', data: { data: found.map(listItem), pagination: { total: found.length, per_page: 10, current_page: 1, last_page: 1 } } } };
    }
    if (req.method === 'GET' && rest) {
      const doc = documents.find((d) => d.account === account && d.kind === kind && d.number === decodeURIComponent(rest));
      return doc ? { status: 200, body: { status: 'OK', message: 'Solicitud exitosa', data: documentData(doc) } } : { status: 404, body: { message: 'Documento no encontrado' } };
    }
    if (req.method === 'DELETE' && rest?.startsWith('destroy/reference/')) {
      const reference = decodeURIComponent(rest.slice('destroy/reference/'.length));
      const index = documents.findIndex((d) => d.account === account && d.kind === kind && d.reference === reference);
      if (index < 0) return { status: 404, body: { message: 'Documento no encontrado' } };
      if (documents[index]!.validated) return { status: 409, body: { message: 'El documento ya fue validado por la DIAN y no se puede eliminar' } };
      documents.splice(index, 1);
      return { status: 200, body: { status: 'OK', message: 'Documento eliminado con éxito' } };
    }
    return { status: 405, body: { message: 'Método no permitido' } };
  }, options, {
    addAccount: (account) => accounts.set((account as FactusAccount).clientId, account as FactusAccount),
    documents: () => documents.map((d) => ({ kind: d.kind, clientId: d.account.clientId, reference: d.reference, number: d.number, validated: d.validated })),
  });

  function token(body: unknown, contentType: string | undefined) {
    if (!String(contentType ?? '').includes('application/x-www-form-urlencoded') || !isObject(body)) {
      return { status: 400, body: { error: 'unsupported_grant_type', message: 'El cuerpo debe enviarse como formulario' } };
    }
    const account = accounts.get(String(body.client_id));
    if (!account || body.client_secret !== account.clientSecret) return { status: 401, body: { error: 'invalid_client', message: 'Client authentication failed' } };
    if (body.grant_type !== 'password') return { status: 400, body: { error: 'unsupported_grant_type', message: 'grant_type debe ser password' } };
    if (body.username !== account.username || body.password !== account.password) {
      return { status: 400, body: { error: 'invalid_grant', message: 'The user credentials were incorrect.' } };
    }
    const access = rand();
    tokens.set(access, { account, expiresAt: kit.now().getTime() + TOKEN_SECONDS * 1000 });
    return { status: 200, body: { token_type: 'Bearer', expires_in: TOKEN_SECONDS, access_token: access, refresh_token: rand() } };
  }

  /** Checks a body as Factus documents it; answers its lines' Factus total (net + IVA per line). */
  function check(kind: 'INVOICE' | 'CREDIT_NOTE', body: Record<string, unknown>, errors: FieldErrors, account: FactusAccount) {
    if (typeof body.reference_code !== 'string' || body.reference_code.length === 0) errors.add('reference_code', 'El campo reference_code es obligatorio.');
    if (body.numbering_range_id !== undefined && body.numbering_range_id !== account.numberingRangeId) errors.add('numbering_range_id', 'El rango de numeración no existe o no está activo.');
    if (kind === 'INVOICE') {
      if (body.operation_type !== undefined && body.operation_type !== '10') errors.add('operation_type', 'Tipo de operación no soportado.');
      if (body.billing_period !== undefined) {
        const p = isObject(body.billing_period) ? body.billing_period : {};
        if (!isDate(p.start_date)) errors.add('billing_period.start_date', 'Formato YYYY-MM-DD.');
        if (!isDate(p.end_date)) errors.add('billing_period.end_date', 'Formato YYYY-MM-DD.');
      }
    } else {
      if (!CONCEPTS.includes(String(body.correction_concept_code))) errors.add('correction_concept_code', 'Código de corrección inválido.');
      if ((body.customization_id ?? '20') === '20' && typeof body.bill_number !== 'string') errors.add('bill_number', 'El campo bill_number es obligatorio.');
    }
    const payments = Array.isArray(body.payment_details) ? body.payment_details : [];
    if (payments.length === 0) errors.add('payment_details', 'Debe enviar al menos un medio de pago.');
    let paid = 0;
    payments.forEach((p, i) => {
      const payment = isObject(p) ? p : {};
      if (!PAYMENT_FORMS.includes(String(payment.payment_form))) errors.add(`payment_details.${i}.payment_form`, 'Forma de pago inválida.');
      if (!PAYMENT_METHODS.includes(String(payment.payment_method_code))) errors.add(`payment_details.${i}.payment_method_code`, 'Método de pago inválido.');
      const amount = typeof payment.amount === 'string' ? centsOf(payment.amount) : null;
      if (amount === null || amount <= 0) errors.add(`payment_details.${i}.amount`, 'Monto inválido (cadena con máximo dos decimales).');
      else paid += amount;
    });
    const customer = isObject(body.customer) ? body.customer : null;
    let buyerId = '';
    if (!customer) errors.add('customer', 'El campo customer es obligatorio.');
    else {
      const code = String(customer.identification_document_code);
      buyerId = String(customer.identification ?? '');
      if (!DOCUMENT_CODES.includes(code)) errors.add('customer.identification_document_code', 'Tipo de documento inválido.');
      if (!/^[A-Za-z0-9]{3,20}$/.test(buyerId) || ((code === '13' || code === '31') && !/^\d+$/.test(buyerId))) errors.add('customer.identification', 'Identificación inválida.');
      // DIAN's final consumer is twelve twos; eleven (a typo in a vendor example) is not it.
      if (/^2+$/.test(buyerId) && buyerId !== '222222222222') errors.add('customer.identification', 'El consumidor final se identifica con 222222222222.');
      if (customer.dv !== undefined) {
        if (code !== '31') errors.add('customer.dv', 'El dígito de verificación solo aplica a NIT.');
        else if (/^\d+$/.test(buyerId) && String(customer.dv) !== String(nitCheckDigit(buyerId))) errors.add('customer.dv', 'El dígito de verificación no corresponde al NIT.');
      }
      if (!['1', '2'].includes(String(customer.legal_organization_code))) errors.add('customer.legal_organization_code', 'Tipo de organización inválido.');
      if (customer.legal_organization_code === '1' && typeof customer.company !== 'string') errors.add('customer.company', 'Es obligatorio para personas jurídicas.');
      if (customer.legal_organization_code === '2' && typeof customer.names !== 'string') errors.add('customer.names', 'Es obligatorio para personas naturales.');
      if (customer.tribute_code !== undefined && !['01', 'ZZ'].includes(String(customer.tribute_code))) errors.add('customer.tribute_code', 'Tributo inválido.');
    }
    let lineExtension = 0;
    let iva = 0;
    itemsOf(body, errors, 'Debe enviar al menos un ítem.').forEach((item, i) => {
      for (const field of ['code_reference', 'name', 'unit_measure_code', 'standard_code']) {
        if (typeof item[field] !== 'string' || item[field] === '') errors.add(`items.${i}.${field}`, `El campo ${field} es obligatorio.`);
      }
      const quantity = typeof item.quantity === 'string' ? centsOf(item.quantity) : null;
      const price = typeof item.price === 'string' ? centsOf(item.price) : null;
      if (quantity === null || quantity <= 0) errors.add(`items.${i}.quantity`, 'Cantidad inválida (cadena, máximo dos decimales).');
      if (price === null || price < 0) errors.add(`items.${i}.price`, 'Precio inválido (cadena, máximo dos decimales).');
      const discountAmount = item.discount_amount === undefined ? 0 : typeof item.discount_amount === 'string' ? centsOf(item.discount_amount) : null;
      const discountRate = item.discount_rate === undefined ? 0 : typeof item.discount_rate === 'string' ? centsOf(item.discount_rate) : null;
      if (discountAmount === null || discountAmount < 0) errors.add(`items.${i}.discount_amount`, 'Descuento inválido.');
      if (discountRate === null || discountRate < 0 || discountRate > 10_000) errors.add(`items.${i}.discount_rate`, 'Porcentaje de descuento inválido.');
      const taxes = Array.isArray(item.taxes) ? item.taxes : [];
      if (taxes.length === 0) errors.add(`items.${i}.taxes`, 'Debe enviar los impuestos del ítem.');
      if (quantity === null || price === null || discountAmount === null || discountRate === null) return;
      const gross = Math.round((price * quantity) / 100);
      const net = gross - discountAmount - Math.round((gross * discountRate) / 10_000);
      if (net < 0) errors.add(`items.${i}.discount_amount`, 'El descuento supera el valor del ítem.');
      lineExtension += net;
      taxes.forEach((t, j) => {
        const tax = isObject(t) ? t : {};
        if (tax.code !== '01') errors.add(`items.${i}.taxes.${j}.code`, 'Solo se admite IVA (01).');
        if (!TAX_RATES.includes(String(tax.rate))) errors.add(`items.${i}.taxes.${j}.rate`, 'Tarifa inválida.');
        if (tax.is_excluded !== undefined && typeof tax.is_excluded !== 'boolean') errors.add(`items.${i}.taxes.${j}.is_excluded`, 'Debe ser booleano.');
        if (tax.is_excluded === true) return;
        iva += Math.round((net * (centsOf(String(tax.rate)) ?? 0)) / 10_000);
      });
    });
    const total = lineExtension + iva;
    const rounding = body.cash_rounding_amount === undefined ? 0 : typeof body.cash_rounding_amount === 'string' ? centsOf(body.cash_rounding_amount) : null;
    if (rounding === null || Math.abs(rounding) > 50_000) errors.add('cash_rounding_amount', 'Debe estar entre -500.00 y 500.00.');
    else if (errors.ok && paid !== total + rounding) {
      errors.add('payment_details', `La suma de los pagos (${formatAmount(paid)}) no coincide con el total del documento (${formatAmount(total)}) más el redondeo.`);
    }
    return { lineExtension, iva, total, buyerId };
  }

  function validate(account: FactusAccount, kind: 'INVOICE' | 'CREDIT_NOTE', raw: unknown) {
    const body = isObject(raw) ? raw : {};
    const errors = new FieldErrors();
    const totals = check(kind, body, errors, account);
    if (!errors.ok) return { status: 422, body: { message: 'Los datos proporcionados no son válidos.', errors: errors.errors } };
    const reference = String(body.reference_code);
    const existing = documents.find((d) => d.account === account && d.kind === kind && d.reference === reference);
    if (existing?.validated) return { status: 200, body: { status: 'OK', message: `Documento con el código de referencia ${reference} ya fue validado`, data: documentData(existing) } };
    const blocking = documents.find((d) => d.account === account && d.kind === kind && !d.validated && Object.keys(d.errors).length > 0);
    if (blocking) return { status: 409, body: { message: `Se encontró un documento rechazado pendiente (${blocking.reference}); elimínelo antes de enviar otro` } };
    let bill: StoredDocument | undefined;
    if (kind === 'CREDIT_NOTE') {
      bill = documents.find((d) => d.account === account && d.kind === 'INVOICE' && d.number === body.bill_number);
      if (!bill?.validated) return { status: 422, body: { message: 'Los datos proporcionados no son válidos.', errors: { bill_number: ['La factura no existe o no ha sido validada por la DIAN.'] } } };
      const credited = documents.filter((d) => d.account === account && d.kind === 'CREDIT_NOTE' && d.validated && d.billNumber === bill!.number).reduce((sum, d) => sum + d.total, 0);
      if (credited + totals.total > bill.total) return { status: 422, body: { message: 'Los datos proporcionados no son válidos.', errors: { items: ['El valor de la nota supera el saldo de la factura.'] } } };
      if (bill.buyerId !== totals.buyerId) return { status: 422, body: { message: 'Los datos proporcionados no son válidos.', errors: { 'customer.identification': ['El cliente debe ser el de la factura.'] } } };
    }
    const doc: StoredDocument = existing ?? {
      kind,
      account,
      reference,
      number: nextNumber(account, kind),
      key: '',
      validated: false,
      errors: {},
      total: totals.total,
      buyerId: totals.buyerId,
      issueDate: '',
      ...(bill ? { billNumber: bill.number } : {}),
      body,
    };
    if (!existing) documents.push(doc);
    const at = bogotaIssueDateTime(kit.now());
    doc.issueDate = at.date;
    const fields = { number: doc.number, issueDate: at.date, issueTime: at.time, lineExtension: totals.lineExtension, iva: totals.iva, inc: 0, ica: 0, payable: totals.total, supplierNit: account.nit, buyerId: totals.buyerId, environment: 2 as const };
    doc.key = kind === 'INVOICE' ? cufe({ ...fields, technicalKey: TEST_RANGE.technicalKey }) : cude({ ...fields, softwarePin: account.softwarePin });
    const dian = kit.takeDianFault();
    if (dian?.kind === 'dian-pending') {
      doc.errors = {};
      return { status: 201, body: { status: 'Created', message: 'Documento registrado; la DIAN no ha respondido', data: documentData(doc) } };
    }
    if (dian?.kind === 'dian' && dian.rule === '90') {
      // The number was already processed at DIAN: Factus relays rule 90 while the document is valid.
      doc.validated = true;
      return { status: 201, body: { status: 'Created', message: 'Documento procesado anteriormente', data: { ...documentData(doc), is_validated: false, errors: { '90': `Regla: 90, Rechazo: ${DIAN_RULES['90']}` } } } };
    }
    if (dian?.kind === 'dian') {
      doc.errors = { [dian.rule]: `Regla: ${dian.rule}, Rechazo: ${dian.message ?? DIAN_RULES[dian.rule] ?? 'Documento rechazado'}` };
      return { status: 201, body: { status: 'Created', message: 'Documento rechazado por la DIAN', data: documentData(doc) } };
    }
    doc.validated = true;
    doc.errors = { FAJ44b: 'Regla: FAJ44b, Notificación: Nombre informado no corresponde al registrado en el RUT' };
    return { status: 201, body: { status: 'Created', message: `Documento con el código de referencia ${reference} registrado y validado con éxito`, data: documentData(doc) } };
  }

  function nextNumber(account: FactusAccount, kind: 'INVOICE' | 'CREDIT_NOTE'): string {
    const counter = counters.get(account) ?? { bill: TEST_RANGE.from, note: 0 };
    counters.set(account, counter);
    if (kind === 'CREDIT_NOTE') return `NC${++counter.note}`;
    if (counter.bill >= TEST_RANGE.to) throw new Error('the test range is used up');
    return `${TEST_RANGE.prefix}${++counter.bill}`;
  }

  function documentData(doc: StoredDocument) {
    const links = { qr: dianQrUrl(doc.key, 2), public_url: `${kit.origin}/public/${doc.number}` };
    const common = { reference_code: doc.reference, number: doc.number, is_validated: doc.validated, validated_at: doc.validated ? doc.issueDate : null, errors: doc.errors, links };
    if (doc.kind === 'INVOICE') return { ...common, cufe: doc.validated ? doc.key : null, send_email: false, totals: { total: formatAmount(doc.total) } };
    const bill = documents.find((d) => d.account === doc.account && d.kind === 'INVOICE' && d.number === doc.billNumber);
    return { ...common, cude: doc.validated ? doc.key : null, qr: links.qr, cufe: bill?.key ?? null, bill_number: doc.billNumber };
  }

  const listItem = (doc: StoredDocument) => ({ number: doc.number, reference_code: doc.reference, status: doc.validated ? 1 : 0, total: formatAmount(doc.total) });

  return {
    ...kit,
    /** What FACTUS_API_URL is set to. */
    url: kit.origin,
    documents,
    addAccount: (account: FactusAccount) => void accounts.set(account.clientId, account),
    /** Ends every token now (the next call with one answers 401). */
    expireTokens: () => tokens.clear(),
  };
}

export type FactusDouble = Awaited<ReturnType<typeof startFactusDouble>>;

/** A fresh account on `double`, unique per call. */
export function factusDoubleAccount(double: FactusDouble): FactusAccount {
  const id = rand();
  const account = { ...FACTUS_DOUBLE_ACCOUNT, clientId: `client-${id}`, clientSecret: `secret-${id}`, username: `${id}@factus.double` };
  double.addAccount(account);
  return account;
}

if (process.argv[1]?.endsWith('factus-double.ts')) {
  void startFactusDouble(processOptions(process.argv)).then((double) => console.log(`Factus double on ${double.url}`));
}
