import PDFDocument from 'pdfkit';
import { fill, formatCop, formatLongDate } from '@/lib/i18n/format';
import { type ChargeLine, itemised } from './lines';
import { LANG_TAG, type Lang } from '@/lib/i18n/locale';

// The receipt of an approved charge as a tagged PDF (docs/customers.md#receipts), in the customer's
// language. Its dates are the charge's, so the same receipt renders the same bytes.

export interface Receipt {
  lang: Lang;
  merchantName: string;
  merchantNit: string | null;
  customer: { name: string | null; email: string; idType: string | null; idNumber: string | null };
  description: string;
  /** The period the charge pays for: from its due date to the next one (null end: a SINGLE plan). */
  periodStart: Date;
  periodEnd: Date | null;
  chargeDate: Date;
  /** Cents: the plan's price before any discount, the discount, and what was charged. */
  listAmount: number;
  discount: number;
  amount: number;
  method: { type: 'CARD' | 'NEQUI' | 'PSE'; brand: string | null; last4: string | null };
  /** The charge's lines (lib/receipts/lines.ts), listed when they say more than the list price. */
  lines: ChargeLine[];
  transactionId: string;
  gatewayTransactionId: string | null;
  /** The charge's electronic invoice once DIAN validated it (docs/einvoicing.md#where-it-shows). */
  invoice?: { number: string; cufe: string; qrUrl: string } | null;
}

const WORDS = {
  es: {
    title: 'Recibo de pago',
    nit: 'NIT',
    customer: 'Cliente',
    description: 'Descripción',
    period: 'Período',
    chargeDate: 'Fecha del cobro',
    listAmount: 'Precio de lista',
    fixedLine: 'Cargo fijo: {quantity} × {unit}',
    setupFeeLine: 'Cargo de inscripción (una vez)',
    usageLine: 'Uso del periodo: {quantity} unidades',
    discount: 'Descuento',
    amount: 'Valor cobrado',
    method: 'Medio de pago',
    methods: { CARD: 'Tarjeta', NEQUI: 'Nequi', PSE: 'PSE' },
    endingIn: 'terminada en',
    transactionId: 'Transacción ServicePay',
    gatewayTransactionId: 'Referencia del procesador',
    invoice: 'Factura electrónica',
    cufe: 'CUFE',
    qrUrl: 'Consulta en la DIAN',
    none: 'ninguna',
    footer: 'Pago procesado por ServicePay. Conserve este recibo para sus registros.',
  },
  en: {
    title: 'Payment receipt',
    nit: 'NIT (tax id)',
    customer: 'Customer',
    description: 'Description',
    period: 'Period',
    chargeDate: 'Charge date',
    listAmount: 'List price',
    fixedLine: 'Fixed charge: {quantity} × {unit}',
    setupFeeLine: 'Setup fee (once)',
    usageLine: "The period's usage: {quantity} units",
    discount: 'Discount',
    amount: 'Amount charged',
    method: 'Payment method',
    methods: { CARD: 'Card', NEQUI: 'Nequi', PSE: 'PSE' },
    endingIn: 'ending in',
    transactionId: 'ServicePay transaction',
    gatewayTransactionId: 'Processor reference',
    invoice: 'Electronic invoice',
    cufe: 'CUFE',
    qrUrl: 'Check it at DIAN',
    none: 'none',
    footer: 'Payment processed by ServicePay. Keep this receipt for your records.',
  },
} as const;

const dateOf = (lang: Lang, date: Date) => formatLongDate(date, lang);

/** One line of the charge as the receipt lists it (the discount has its own row). */
function lineRow(lang: Lang, line: Exclude<ChargeLine, { kind: 'discount' }>): [string, string] {
  const w = WORDS[lang];
  if (line.kind === 'setup_fee') return [w.setupFeeLine, `${formatCop(line.amount)} COP`];
  if (line.kind === 'usage') return [fill(w.usageLine, { quantity: line.quantity }), `${formatCop(line.amount)} COP`];
  return [fill(w.fixedLine, { quantity: line.quantity, unit: formatCop(line.unitAmount) }), `${formatCop(line.amount)} COP`];
}

/** The receipt's lines, label and value, in order: what the PDF shows and a test reads. */
function receiptLines(r: Receipt): [label: string, value: string][] {
  const w = WORDS[r.lang];
  const customer = [r.customer.name, r.customer.email, r.customer.idType && r.customer.idNumber ? `${r.customer.idType} ${r.customer.idNumber}` : null]
    .filter(Boolean)
    .join(' · ');
  const method =
    r.method.type === 'CARD' && r.method.last4 ? `${r.method.brand ?? w.methods.CARD} ${w.endingIn} ${r.method.last4}` : w.methods[r.method.type];
  return [
    [w.customer, customer],
    [w.description, r.description],
    [w.period, r.periodEnd ? `${dateOf(r.lang, r.periodStart)} – ${dateOf(r.lang, r.periodEnd)}` : dateOf(r.lang, r.periodStart)],
    [w.chargeDate, dateOf(r.lang, r.chargeDate)],
    ...(itemised(r.lines) ? r.lines.filter((line) => line.kind !== 'discount').map((line) => lineRow(r.lang, line)) : []),
    [w.listAmount, `${formatCop(r.listAmount)} COP`],
    [w.discount, r.discount > 0 ? `${formatCop(-r.discount)} COP` : w.none],
    [w.amount, `${formatCop(r.amount)} COP`],
    [w.method, method],
    [w.transactionId, r.transactionId],
    ...(r.gatewayTransactionId ? [[w.gatewayTransactionId, r.gatewayTransactionId] as [string, string]] : []),
    ...(r.invoice
      ? ([
          [w.invoice, r.invoice.number],
          [w.cufe, r.invoice.cufe],
          [w.qrUrl, r.invoice.qrUrl],
        ] as [string, string][])
      : []),
  ];
}

/** The receipt as PDF bytes. */
export function renderReceiptPdf(r: Receipt): Promise<Buffer> {
  const w = WORDS[r.lang];
  const title = `${w.title} · ${r.merchantName}`;
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    pdfVersion: '1.7',
    tagged: true,
    lang: LANG_TAG[r.lang],
    displayTitle: true,
    info: { Title: title, Author: r.merchantName, Subject: r.description, Creator: 'ServicePay', Producer: 'ServicePay', CreationDate: r.chargeDate, ModDate: r.chargeDate },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const root = doc.struct('Document');
  doc.addStructure(root);
  doc.font('Helvetica-Bold').fontSize(20).fillColor('#14213d').text(w.title, { structParent: root, structType: 'H1' });
  doc.moveDown(0.5);
  doc.font('Helvetica-Bold').fontSize(13).text(r.merchantName, { structParent: root, structType: 'P' });
  if (r.merchantNit) doc.font('Helvetica').fontSize(11).text(`${w.nit} ${r.merchantNit}`, { structParent: root, structType: 'P' });
  doc.moveDown(1);
  for (const [label, value] of receiptLines(r)) {
    const strong = label === w.amount;
    doc.font('Helvetica').fontSize(10).fillColor('#4a5568').text(label, { structParent: root, structType: 'P' });
    doc.font(strong ? 'Helvetica-Bold' : 'Helvetica').fontSize(strong ? 14 : 12).fillColor('#14213d').text(value, { structParent: root, structType: 'P' });
    doc.moveDown(0.6);
  }
  doc.moveDown(1);
  doc.font('Helvetica').fontSize(9).fillColor('#4a5568').text(w.footer, { structParent: root, structType: 'P' });
  root.end();
  doc.end();
  return done;
}
