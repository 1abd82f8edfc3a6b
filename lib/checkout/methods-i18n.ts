// The checkout's words for its payment methods (card, Nequi, PSE) and Wompi's consent
// (docs/checkout.md): Spanish first, English with `?lang=en`, the customer addressed as "usted".
// Plain data, so it crosses to the client form as props.

import type { BillingInterval } from '@/lib/calendar/interval';
import { everyInterval } from '@/lib/i18n/interval';
import { fill, formatCop, type Lang, type Modality, periodAmount, type PeriodPricing } from './i18n';
import { bilingual } from '@/lib/i18n/locale';

const es = {
  legend: 'Medio de pago',
  methods: { CARD: 'Tarjeta', NEQUI: 'Nequi', PSE: 'PSE' },
  methodHints: { CARD: 'Crédito o débito', NEQUI: 'Apruebe en su app', PSE: 'Débito desde su banco' },
  nequi: {
    heading: 'Pagar con Nequi',
    phone: 'Celular registrado en Nequi',
    phoneHint: 'Le llegará una notificación a la app Nequi para aprobar el pago.',
    phoneProblem: 'Ingrese un celular colombiano de 10 dígitos que empiece por 3.',
    pay: 'Pagar {amount} con Nequi',
    waiting: { title: 'Apruebe el pago en su app Nequi', text: 'Abra Nequi en su celular y acepte la solicitud de {merchant}. Esta página se actualiza sola.' },
    declined: 'El pago no fue aprobado en Nequi. Puede intentarlo de nuevo u otro medio de pago.',
    authorization: {
      SUBSCRIPTION: 'Al aprobar, autoriza a {merchant} a cobrar {amount} {every} a esta cuenta Nequi hasta que cancele la suscripción.',
      SINGLE: 'Se cobrará {amount} una sola vez a esta cuenta Nequi.',
    },
  },
  pse: {
    heading: 'Pagar con PSE',
    bank: 'Banco',
    chooseBank: 'Seleccione su banco',
    userType: 'Tipo de persona',
    person: 'Persona natural',
    company: 'Persona jurídica (empresa)',
    legalIdType: 'Tipo de documento',
    legalId: 'Número de documento',
    fullName: 'Nombre completo o razón social',
    phone: 'Celular',
    pay: 'Continuar al banco',
    redirecting: { title: 'Lo estamos llevando a su banco', text: 'Complete el pago en la página de su banco; al terminar volverá aquí para ver el resultado.' },
    banksUnavailable: 'No pudimos cargar la lista de bancos. Intente más tarde o pague con otro medio.',
    subscription: 'PSE no se puede cobrar sin usted: cada renovación le llegará por correo como un link de pago, unos días antes de la fecha. Con tarjeta o Nequi, se cobran solas.',
    problems: {
      institutionCode: 'Seleccione su banco.',
      legalId: 'Ingrese el número de documento (solo letras y números).',
      fullName: 'Ingrese el nombre completo.',
      phoneNumber: 'Ingrese un celular colombiano de 10 dígitos que empiece por 3.',
    },
    idTypes: { CC: 'Cédula de ciudadanía', CE: 'Cédula de extranjería', NIT: 'NIT', PP: 'Pasaporte' },
  },
  consent: {
    legend: 'Autorizaciones',
    endUser: 'Acepto el {link} de Wompi.',
    endUserLink: 'reglamento para usuarios pagadores',
    personalData: 'Autorizo el {link} según la política de Wompi.',
    personalDataLink: 'tratamiento de mis datos personales',
    newWindow: '(se abre en una ventana nueva)',
    required: 'Debe aceptar ambos documentos para pagar.',
  },
  tokenizing: 'Protegiendo los datos de su tarjeta…',
  viaWompi: 'Su tarjeta se envía cifrada directamente a Wompi; ni {merchant} ni ServicePay ven el número.',
  sandboxData: 'Datos de prueba: Nequi 399 111 1111 aprueba y 399 222 2222 rechaza; en PSE, «Banco que aprueba» o «Banco que rechaza».',
  noProcessor: {
    title: 'Este comercio aún no puede recibir pagos',
    text: '{merchant} todavía no ha terminado de configurar sus pagos. Intente más tarde o comuníquese con el comercio.',
  },
  processorDown: {
    title: 'No pudimos conectar con el procesador de pagos',
    text: 'Intente de nuevo en unos minutos. No se ha hecho ningún cobro.',
  },
  noScript: 'Para pagar con este comercio su navegador debe tener JavaScript activado: los datos de la tarjeta se protegen en su navegador antes de enviarse.',
  loading: 'La página aún se está cargando; el botón de pago se activa en un momento. Si no se activa, su navegador necesita JavaScript: los datos de la tarjeta se protegen en su navegador antes de enviarse.',
};

type MethodsCopyTable = typeof es;

const tables = bilingual(es, {
  legend: 'Payment method',
  methods: { CARD: 'Card', NEQUI: 'Nequi', PSE: 'PSE' },
  methodHints: { CARD: 'Credit or debit', NEQUI: 'Approve in your app', PSE: 'Debit from your bank' },
  nequi: {
    heading: 'Pay with Nequi',
    phone: 'Mobile number registered in Nequi',
    phoneHint: 'You will get a notification in the Nequi app to approve the payment.',
    phoneProblem: 'Enter a 10-digit Colombian mobile number starting with 3.',
    pay: 'Pay {amount} with Nequi',
    waiting: { title: 'Approve the payment in your Nequi app', text: 'Open Nequi on your phone and accept the request from {merchant}. This page updates by itself.' },
    declined: 'The payment was not approved in Nequi. You can try again or use another payment method.',
    authorization: {
      SUBSCRIPTION: 'By approving, you authorize {merchant} to charge {amount} to this Nequi account {every} until you cancel the subscription.',
      SINGLE: 'This Nequi account will be charged {amount} once.',
    },
  },
  pse: {
    heading: 'Pay with PSE',
    bank: 'Bank',
    chooseBank: 'Choose your bank',
    userType: 'Account holder',
    person: 'Individual',
    company: 'Company',
    legalIdType: 'Document type',
    legalId: 'Document number',
    fullName: 'Full name or company name',
    phone: 'Mobile',
    pay: 'Continue to your bank',
    redirecting: { title: 'Taking you to your bank', text: "Complete the payment on your bank's page; you will come back here to see the result." },
    banksUnavailable: 'We could not load the list of banks. Try later or use another payment method.',
    subscription: 'PSE cannot be charged without you: each renewal reaches you by e-mail as a payment link, a few days before its date. By card or Nequi, they are charged automatically.',
    problems: {
      institutionCode: 'Choose your bank.',
      legalId: 'Enter the document number (letters and digits only).',
      fullName: 'Enter the full name.',
      phoneNumber: 'Enter a 10-digit Colombian mobile number starting with 3.',
    },
    idTypes: { CC: 'Citizenship ID (CC)', CE: 'Foreigner ID (CE)', NIT: 'Tax ID (NIT)', PP: 'Passport' },
  },
  consent: {
    legend: 'Authorizations',
    endUser: "I accept Wompi's {link}.",
    endUserLink: 'terms for paying users',
    personalData: 'I authorize the {link} under Wompi’s policy.',
    personalDataLink: 'processing of my personal data',
    newWindow: '(opens in a new window)',
    required: 'You must accept both documents to pay.',
  },
  tokenizing: 'Protecting your card details…',
  viaWompi: 'Your card goes encrypted straight to Wompi; neither {merchant} nor ServicePay sees its number.',
  sandboxData: 'Test data: Nequi 399 111 1111 approves and 399 222 2222 declines; in PSE, “Banco que aprueba” or “Banco que rechaza”.',
  noProcessor: {
    title: 'This merchant cannot take payments yet',
    text: '{merchant} has not finished setting up payments. Try later or contact the merchant.',
  },
  processorDown: {
    title: 'We could not reach the payment processor',
    text: 'Try again in a few minutes. Nothing has been charged.',
  },
  noScript: 'To pay this merchant your browser needs JavaScript: card details are protected in your browser before they are sent.',
  loading: 'The page is still loading; the pay button turns on in a moment. If it does not, your browser needs JavaScript: card details are protected in your browser before they are sent.',
});

export type MethodsCopy = Omit<MethodsCopyTable, 'nequi'> & { nequi: Omit<MethodsCopyTable['nequi'], 'authorization'> & { authorization: string } };

/** The methods' strings for one session, with its values in; the pay button names what is charged now (docs/billing.md#coupons). */
export function methodsCopy(
  lang: Lang,
  session: PeriodPricing & { merchantName: string; modality: Modality; interval?: BillingInterval | null; discount?: { amountDue: number } },
): MethodsCopy {
  const table = tables(lang);
  const values = { merchant: session.merchantName, amount: formatCop(periodAmount(session)), every: everyInterval(session.interval, lang) };
  return {
    ...table,
    nequi: {
      ...table.nequi,
      pay: fill(table.nequi.pay, { ...values, amount: formatCop(session.discount?.amountDue ?? session.amount) }),
      waiting: { title: table.nequi.waiting.title, text: fill(table.nequi.waiting.text, values) },
      authorization: fill(table.nequi.authorization[session.modality], values),
    },
    viaWompi: fill(table.viaWompi, values),
    noProcessor: { title: table.noProcessor.title, text: fill(table.noProcessor.text, values) },
  };
}
