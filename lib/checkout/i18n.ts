// The hosted checkout's words (docs/checkout.md#hosted-page): Spanish (es-CO, "usted") by default,
// English by `?lang=en` or Accept-Language. No Node-only code: the form gets plain strings.

import { fill, formatCop } from '@/lib/i18n/format';
import type { BillingInterval } from '@/lib/calendar/interval';
import { everyInterval } from '@/lib/i18n/interval';
import { LANG_TAG, type Lang } from '@/lib/i18n/locale';
import type { CardField, CardProblem } from '@/lib/processors/card';

// The language core and money formatting are shared with the portal and proxy.ts (lib/i18n).
export { fill, formatCop } from '@/lib/i18n/format';
export { LANG_HEADER, LANG_TAG, type Lang, resolveLang } from '@/lib/i18n/locale';

/** A Colombian mobile number in its usual groups (`+57 300 123 4567`); any other number as given. */
export function formatPhone(e164: string): string {
  const co = /^\+57(3\d{2})(\d{3})(\d{4})$/.exec(e164);
  return co ? `+57 ${co[1]} ${co[2]} ${co[3]}` : e164;
}

/** The strings the client form needs: plain data, so they can cross to the browser as props. */
export interface FormCopy {
  heading: string;
  labels: Record<CardField, string>;
  placeholders: Record<CardField, string>;
  holderHint: string;
  problems: Record<CardField, Partial<Record<CardProblem, string>>>;
  /** Server-side refusal of a field that passed the form's own checks. */
  serverProblem: Record<CardField, string>;
  pay: string;
  processing: string;
  authorization: string;
  /** The link from a declined or failed outcome page back to the form. */
  tryAgain: string;
  ready: { title: string; text: string };
  status: {
    processing: { title: string; text: string };
    pending: { title: string; text: string };
    approved: { title: string; text: string; transactionId: string; close: string };
    declined: { title: string; insufficient_funds: string; card_not_supported: string; other: string };
    error: { title: string; text: string };
    network: { title: string; text: string };
    rateLimited: { title: string; text: string };
    inProgress: { title: string; text: string };
    expired: { title: string; text: string };
    paid: { title: string; text: string };
    unavailable: { title: string; text: string };
    /** The card form posted without JavaScript where the processor needs it (the card is tokenized in the browser). */
    javascriptRequired: { title: string; text: string };
    /** A renewal link's payment approved after its plan was cancelled or paused (renewal-i18n.ts). */
    late?: { title: string; voided: string; refund: string };
    /** A free trial started: the method saved, nothing charged (docs/billing.md#trials). */
    trialStarted: { title: string; text: string };
  };
}

export type Modality = 'SUBSCRIPTION' | 'SINGLE';

const es = {
  htmlTitle: 'Pago seguro',
  secure: 'Pago seguro',
  poweredBy: 'Procesado por ServicePay',
  payTo: 'Pago a',
  modality: { SUBSCRIPTION: 'Suscripción mensual', SINGLE: 'Pago único' } satisfies Record<Modality, string>,
  /** The badge of a subscription charged other than monthly (its period is said next to the price). */
  subscription: 'Suscripción',
  perMonth: 'al mes',
  firstPeriod: 'Cobro proporcional hasta el {date}, su día de cobro; desde entonces, {amount} {period}.',
  setupFee: 'Incluye el cargo de inscripción de {fee}, que se cobra una sola vez; después, {amount} {period}.',
  currencyNote: 'Pesos colombianos (COP)',
  customer: 'Sus datos',
  name: 'Nombre',
  phone: 'Celular',
  validUntil: 'Link válido hasta el {date}',
  trial: {
    note: 'Hoy no se le cobra nada: se guarda su tarjeta o su cuenta Nequi, el primer cobro se hace al terminar la prueba, y puede cancelar antes sin costo.',
    noteWithFee: 'Hoy solo se cobra el cargo de inscripción de {fee}, una sola vez: se guarda su tarjeta o su cuenta Nequi, el primer cobro de {amount} se hace al terminar la prueba, y puede cancelar antes sin más costo.',
    started: { title: 'Su prueba gratis ya empezó', text: 'No tiene que pagar nada ahora. El {date} se hará el primer cobro, de {amount}.' },
  },
  buyer: {
    summary: 'Factura a nombre de… (opcional)',
    title: 'Factura a nombre de…',
    intro: 'Si no llena estos datos, la factura electrónica sale a nombre de consumidor final. Para recibirla a su nombre o al de su empresa, guárdelos antes de pagar.',
    introManage: 'Las próximas facturas electrónicas salen a nombre de quien indique aquí. Las ya emitidas no cambian.',
    current: 'Ahora: {name}, {type} {number}.',
    currentFinal: 'Ahora: consumidor final.',
    type: 'Tipo de documento',
    types: { CC: 'Cédula de ciudadanía (CC)', NIT: 'NIT', CE: 'Cédula de extranjería (CE)', PP: 'Pasaporte (PP)' },
    number: 'Número de documento',
    numberHint: 'Un NIT, con o sin su dígito de verificación (900559088-2): lo calculamos y lo revisamos.',
    legalName: 'Nombre o razón social',
    save: 'Guardar datos de facturación',
    remove: 'Quitar: facturar a consumidor final',
    unchanged: 'No se cambió nada.',
    outcome: {
      saved: 'Listo: la factura saldrá a nombre de {name} ({type} {number}).',
      savedLater: 'Listo: las próximas facturas saldrán a nombre de {name} ({type} {number}).',
      removed: 'Listo: la factura saldrá a nombre de consumidor final.',
      removedLater: 'Listo: las próximas facturas saldrán a nombre de consumidor final.',
      type: 'Tipo de documento: elija cédula de ciudadanía, NIT, cédula de extranjería o pasaporte.',
      required: 'Número de documento: escriba el número.',
      final_consumer: 'Número de documento: 222222222222 es el de consumidor final. Para facturar así, no llene estos datos.',
      nit: 'Número de documento: un NIT tiene de 5 a 15 dígitos, y puede llevar su dígito de verificación después de un guion (900559088-2).',
      check_digit: 'Número de documento: el dígito de verificación de ese NIT no es correcto; debe ser {dv}.',
      cc: 'Número de documento: una cédula de ciudadanía son solo dígitos (de 3 a 12), sin puntos ni letras.',
      document: 'Número de documento: escriba de 3 a 20 letras y dígitos, sin espacios ni guiones.',
      name_required: 'Nombre o razón social: escriba a nombre de quién va la factura.',
      name_long: 'Nombre o razón social: use 200 caracteres como máximo.',
      unavailable: 'Los datos de facturación ya no se pueden cambiar aquí.',
      rate_limited: 'Demasiados intentos. Espere un minuto e intente de nuevo.',
      form: 'No pudimos leer el formulario. Intente de nuevo.',
    },
  },
  coupon: {
    dueToday: 'hoy',
    listPrice: 'Precio',
    discount: 'Descuento',
    discountCode: 'Descuento ({code})',
    dueNow: 'Paga hoy',
    dueAtTrialEnd: 'Primer cobro, al terminar la prueba',
    firstCharge: 'primer cobro',
    later: 'Después',
    laterForever: '{amount} {period}, con el descuento en cada cobro',
    laterSome: '{amount} en los próximos {count} cobros; luego {list} {period}',
    laterOne: '{amount} en el próximo cobro; luego {list} {period}',
    laterFull: '{list} {period}',
    formLabel: '¿Tiene un código de descuento?',
    apply: 'Aplicar',
    outcome: {
      applied: 'Código aplicado: el descuento ya se ve arriba.',
      unknown: 'Ese código no es válido para este pago. Revíselo e intente de nuevo.',
      expired: 'Ese código ya venció.',
      exhausted: 'Ese código ya se usó todas las veces permitidas.',
      below_minimum: 'Ese código no se puede usar en este pago: dejaría un cobro menor al mínimo.',
      unavailable: 'Este link no acepta códigos de descuento.',
      rate_limited: 'Demasiados intentos. Espere un minuto e intente de nuevo.',
    },
  },
  expired: {
    title: 'Este link de pago venció',
    text: 'Por seguridad, los links de pago tienen un tiempo límite. Pídale al comercio un link nuevo para completar su pago. Si ya había pagado, no tiene que hacer nada más.',
  },
  paid: {
    title: 'Este link ya fue pagado',
    SUBSCRIPTION: 'Su suscripción a {plan} con {merchant} está activa. No tiene que pagar de nuevo.',
    SINGLE: 'Su pago a {merchant} ya quedó registrado. No tiene que pagar de nuevo.',
  },
  unavailable: {
    title: 'Este pago no está disponible',
    PAUSED: '{merchant} pausó esta suscripción, así que no se puede pagar desde este link. Si tiene dudas, comuníquese con el comercio.',
    CANCELLED: 'Esta suscripción fue cancelada, así que no se puede pagar desde este link. Si tiene dudas, comuníquese con {merchant}.',
    SUSPENDED: '{merchant} no está recibiendo pagos en este momento, así que no se puede pagar desde este link. No se le cobró nada. Si tiene dudas, comuníquese con el comercio.',
  },
  notFound: {
    title: 'No encontramos este link de pago',
    text: 'Revise que la dirección esté completa, tal como se la enviaron. Si el problema continúa, pídale al comercio un link nuevo.',
  },
  form: {
    heading: 'Datos de la tarjeta',
    labels: {
      cardNumber: 'Número de la tarjeta',
      cardExpiry: 'Vencimiento (MM/AA)',
      cardCvc: 'Código de seguridad (CVC)',
      cardHolder: 'Nombre del titular',
    },
    placeholders: { cardNumber: '1234 5678 9012 3456', cardExpiry: 'MM/AA', cardCvc: '123', cardHolder: '' },
    holderHint: 'Como aparece en la tarjeta.',
    problems: {
      cardNumber: {
        required: 'Ingrese el número de la tarjeta.',
        invalid_number: 'El número de la tarjeta no es válido. Revíselo.',
      },
      cardExpiry: {
        required: 'Ingrese la fecha de vencimiento.',
        invalid_expiry: 'Use el formato MM/AA, por ejemplo 08/29.',
        expired: 'Esta tarjeta está vencida. Use otra tarjeta.',
      },
      cardCvc: {
        required: 'Ingrese el código de seguridad.',
        invalid_cvc: 'El código tiene 3 dígitos (4 en American Express), al respaldo de la tarjeta.',
      },
      cardHolder: {
        required: 'Ingrese el nombre del titular.',
        invalid_holder: 'Escriba el nombre como aparece en la tarjeta, sin números.',
        short_holder: 'Escriba el nombre completo como aparece en la tarjeta (al menos 5 caracteres), por ejemplo «Ana Gómez».',
      },
    },
    serverProblem: {
      cardNumber: 'El número de la tarjeta no es válido. Revíselo.',
      cardExpiry: 'La fecha de vencimiento no es válida.',
      cardCvc: 'El código de seguridad no es válido.',
      cardHolder: 'El nombre del titular no es válido.',
    },
    pay: 'Pagar {amount}',
    startTrial: 'Empezar la prueba gratis',
    processing: 'Procesando…',
    tryAgain: 'Intentar de nuevo',
    authorization: {
      SUBSCRIPTION: 'Al pagar, autoriza a {merchant} a cobrar {amount} {every} a esta tarjeta hasta que cancele la suscripción.',
      SINGLE: 'Se hará un único cobro de {amount} a esta tarjeta.',
    },
    ready: {
      title: 'Pague con tarjeta de crédito o débito',
      text: 'Sus datos viajan cifrados: {merchant} nunca ve el número de su tarjeta.',
    },
    status: {
      processing: { title: 'Procesando su pago…', text: 'No cierre ni recargue esta página.' },
      pending: { title: 'Su banco está confirmando el pago…', text: 'Esto puede tardar unos segundos. No cierre esta página.' },
      approved: { title: '¡Pago aprobado!', transactionId: 'Número de transacción', close: 'Ya puede cerrar esta página.' },
      declined: {
        title: 'Pago rechazado',
        insufficient_funds: 'Su banco rechazó el pago por fondos insuficientes. No se hizo ningún cobro. Intente con otra tarjeta.',
        card_not_supported: 'Esta tarjeta no es aceptada para este pago. No se hizo ningún cobro. Intente con otra tarjeta.',
        other: 'Su banco rechazó el pago. No se hizo ningún cobro. Intente con otra tarjeta o comuníquese con su banco.',
      },
      error: {
        title: 'No pudimos procesar el pago',
        text: 'Hubo una falla técnica y no se hizo ningún cobro. Intente de nuevo en unos minutos o con otra tarjeta.',
      },
      network: {
        title: 'Sin conexión con el servidor',
        text: 'No pudimos enviar su pago. Revise su conexión a internet e intente de nuevo.',
      },
      rateLimited: {
        title: 'Demasiados intentos',
        text: 'Demasiados intentos de pago. Por su seguridad, espere {minutes} min e intente de nuevo.',
      },
      inProgress: {
        title: 'Ya hay un pago en proceso',
        text: 'Este link ya tiene un pago en curso. Espere un momento y recargue la página para ver el resultado.',
      },
      expired: {
        title: 'Este link de pago venció',
        text: 'Pídale al comercio un link nuevo para completar su pago. No se hizo ningún cobro.',
      },
      paid: { title: 'Este link ya fue pagado', text: 'El pago ya quedó registrado. No tiene que pagar de nuevo.' },
      unavailable: {
        title: 'Este pago no está disponible',
        text: 'Este link ya no se puede pagar. Si tiene dudas, comuníquese con el comercio.',
      },
      javascriptRequired: {
        title: 'Active JavaScript para pagar',
        text: 'Este comercio protege los datos de su tarjeta en su navegador, y para eso necesita JavaScript. Actívelo o use otro navegador e intente de nuevo. No se hizo ningún cobro.',
      },
    },
    trialStarted: {
      title: '¡Su prueba gratis empezó!',
      text: 'No se le cobró nada. {merchant} le cobrará {amount} {every} cuando termine la prueba, con el medio que acaba de guardar. Puede cancelar antes sin costo.',
      withFee: 'Se le cobró solo el cargo de inscripción de {fee}. {merchant} le cobrará {amount} {every} cuando termine la prueba, con el medio que acaba de guardar. Puede cancelar antes sin más costo.',
    },
    approvedText: {
      SUBSCRIPTION: 'Su suscripción a {plan} quedó activa. {merchant} le cobrará {amount} {every}.',
      SINGLE: 'Su pago de {amount} a {merchant} quedó registrado.',
    },
  },
};

type Copy = typeof es;

const en: Copy = {
  htmlTitle: 'Secure payment',
  secure: 'Secure payment',
  poweredBy: 'Processed by ServicePay',
  payTo: 'Paying',
  modality: { SUBSCRIPTION: 'Monthly subscription', SINGLE: 'One-time payment' },
  subscription: 'Subscription',
  perMonth: 'per month',
  firstPeriod: 'Prorated until {date}, your billing day; from then on, {amount} {period}.',
  setupFee: 'Includes the setup fee of {fee}, charged once; after that, {amount} {period}.',
  currencyNote: 'Colombian pesos (COP)',
  customer: 'Your details',
  name: 'Name',
  phone: 'Mobile',
  validUntil: 'Link valid until {date}',
  trial: {
    note: 'You are not charged today: your card or Nequi account is saved, the first charge is made when the trial ends, and you can cancel before then at no cost.',
    noteWithFee: 'Today only the setup fee of {fee} is charged, once: your card or Nequi account is saved, the first charge of {amount} is made when the trial ends, and you can cancel before then at no further cost.',
    started: { title: 'Your free trial has already started', text: 'You do not need to pay anything now. On {date} the first charge, of {amount}, will be made.' },
  },
  buyer: {
    summary: 'Invoice in the name of… (optional)',
    title: 'Invoice in the name of…',
    intro: 'If you leave this empty, the electronic invoice is made out to the final consumer (consumidor final). To have it in your name or your company\'s, save these details before paying.',
    introManage: 'The next electronic invoices are made out to whoever you name here. Invoices already issued do not change.',
    current: 'Now: {name}, {type} {number}.',
    currentFinal: 'Now: final consumer (consumidor final).',
    type: 'Document type',
    types: { CC: 'Citizenship ID (CC)', NIT: 'NIT', CE: 'Foreigner ID (CE)', PP: 'Passport (PP)' },
    number: 'Document number',
    numberHint: 'A NIT, with or without its check digit (900559088-2): we compute it and check it.',
    legalName: 'Name or company name',
    save: 'Save invoice details',
    remove: 'Remove: invoice the final consumer',
    unchanged: 'Nothing was changed.',
    outcome: {
      saved: 'Done: the invoice will be made out to {name} ({type} {number}).',
      savedLater: 'Done: the next invoices will be made out to {name} ({type} {number}).',
      removed: 'Done: the invoice will be made out to the final consumer.',
      removedLater: 'Done: the next invoices will be made out to the final consumer.',
      type: 'Document type: choose citizenship ID, NIT, foreigner ID or passport.',
      required: 'Document number: enter the number.',
      final_consumer: "Document number: 222222222222 is the final consumer's. To be invoiced that way, leave these details empty.",
      nit: 'Document number: a NIT has 5 to 15 digits, and may carry its check digit after a hyphen (900559088-2).',
      check_digit: "Document number: that NIT's check digit is wrong; it should be {dv}.",
      cc: 'Document number: a citizenship ID is digits only (3 to 12), with no dots or letters.',
      document: 'Document number: enter 3 to 20 letters and digits, with no spaces or hyphens.',
      name_required: 'Name or company name: enter who the invoice is made out to.',
      name_long: 'Name or company name: use 200 characters at most.',
      unavailable: 'The invoice details can no longer be changed here.',
      rate_limited: 'Too many attempts. Wait a minute and try again.',
      form: 'We could not read the form. Please try again.',
    },
  },
  coupon: {
    dueToday: 'today',
    listPrice: 'Price',
    discount: 'Discount',
    discountCode: 'Discount ({code})',
    dueNow: 'You pay today',
    dueAtTrialEnd: 'First charge, when the trial ends',
    firstCharge: 'first charge',
    later: 'After that',
    laterForever: '{amount} {period}, with the discount on every charge',
    laterSome: '{amount} for the next {count} charges; then {list} {period}',
    laterOne: '{amount} on the next charge; then {list} {period}',
    laterFull: '{list} {period}',
    formLabel: 'Do you have a discount code?',
    apply: 'Apply',
    outcome: {
      applied: 'Code applied: the discount is shown above.',
      unknown: 'That code is not valid for this payment. Check it and try again.',
      expired: 'That code has expired.',
      exhausted: 'That code has been used as many times as allowed.',
      below_minimum: 'That code cannot be used on this payment: the charge would fall below the minimum.',
      unavailable: 'This link does not take discount codes.',
      rate_limited: 'Too many attempts. Wait a minute and try again.',
    },
  },
  expired: {
    title: 'This payment link has expired',
    text: 'For your security, payment links are only valid for a limited time. Ask the merchant for a new link to complete your payment. If you already paid, there is nothing else to do.',
  },
  paid: {
    title: 'This link has already been paid',
    SUBSCRIPTION: 'Your {plan} subscription with {merchant} is active. You do not need to pay again.',
    SINGLE: 'Your payment to {merchant} has been recorded. You do not need to pay again.',
  },
  unavailable: {
    title: 'This payment is not available',
    PAUSED: '{merchant} has paused this subscription, so it cannot be paid from this link. If you have questions, contact the merchant.',
    CANCELLED: 'This subscription has been cancelled, so it cannot be paid from this link. If you have questions, contact {merchant}.',
    SUSPENDED: '{merchant} is not taking payments right now, so this link cannot be paid. You have not been charged. If you have questions, contact the merchant.',
  },
  notFound: {
    title: 'We could not find this payment link',
    text: 'Check that the address is complete, exactly as you received it. If the problem persists, ask the merchant for a new link.',
  },
  form: {
    heading: 'Card details',
    labels: {
      cardNumber: 'Card number',
      cardExpiry: 'Expiry date (MM/YY)',
      cardCvc: 'Security code (CVC)',
      cardHolder: 'Cardholder name',
    },
    placeholders: { cardNumber: '1234 5678 9012 3456', cardExpiry: 'MM/YY', cardCvc: '123', cardHolder: '' },
    holderHint: 'As shown on the card.',
    problems: {
      cardNumber: {
        required: 'Enter the card number.',
        invalid_number: 'This card number is not valid. Please check it.',
      },
      cardExpiry: {
        required: 'Enter the expiry date.',
        invalid_expiry: 'Use the MM/YY format, for example 08/29.',
        expired: 'This card has expired. Please use another card.',
      },
      cardCvc: {
        required: 'Enter the security code.',
        invalid_cvc: 'The code has 3 digits (4 on American Express), on the back of the card.',
      },
      cardHolder: {
        required: 'Enter the cardholder name.',
        invalid_holder: 'Write the name as shown on the card, without digits.',
        short_holder: 'Write the full name as shown on the card (at least 5 characters), for example “Ana Gómez”.',
      },
    },
    serverProblem: {
      cardNumber: 'This card number is not valid. Please check it.',
      cardExpiry: 'The expiry date is not valid.',
      cardCvc: 'The security code is not valid.',
      cardHolder: 'The cardholder name is not valid.',
    },
    pay: 'Pay {amount}',
    startTrial: 'Start the free trial',
    processing: 'Processing…',
    tryAgain: 'Try again',
    authorization: {
      SUBSCRIPTION: 'By paying, you authorize {merchant} to charge {amount} to this card {every} until you cancel the subscription.',
      SINGLE: 'This card will be charged {amount} once.',
    },
    ready: {
      title: 'Pay by credit or debit card',
      text: 'Your details are sent encrypted: {merchant} never sees your card number.',
    },
    status: {
      processing: { title: 'Processing your payment…', text: 'Please do not close or reload this page.' },
      pending: { title: 'Your bank is confirming the payment…', text: 'This can take a few seconds. Please do not close this page.' },
      approved: { title: 'Payment approved!', transactionId: 'Transaction number', close: 'You can close this page now.' },
      declined: {
        title: 'Payment declined',
        insufficient_funds: 'Your bank declined the payment for insufficient funds. You were not charged. Please try another card.',
        card_not_supported: 'This card is not accepted for this payment. You were not charged. Please try another card.',
        other: 'Your bank declined the payment. You were not charged. Please try another card or contact your bank.',
      },
      error: {
        title: 'We could not process the payment',
        text: 'A technical problem stopped the payment and you were not charged. Try again in a few minutes or use another card.',
      },
      network: {
        title: 'No connection to the server',
        text: 'We could not send your payment. Check your internet connection and try again.',
      },
      rateLimited: {
        title: 'Too many attempts',
        text: 'Too many payment attempts. For your security, wait {minutes} min and try again.',
      },
      inProgress: {
        title: 'A payment is already in progress',
        text: 'This link already has a payment in progress. Wait a moment and reload the page to see the result.',
      },
      expired: {
        title: 'This payment link has expired',
        text: 'Ask the merchant for a new link to complete your payment. You were not charged.',
      },
      paid: { title: 'This link has already been paid', text: 'The payment has been recorded. You do not need to pay again.' },
      unavailable: {
        title: 'This payment is not available',
        text: 'This link can no longer be paid. If you have questions, contact the merchant.',
      },
      javascriptRequired: {
        title: 'Turn on JavaScript to pay',
        text: 'This merchant protects your card details in your browser, which needs JavaScript. Turn it on or use another browser and try again. You were not charged.',
      },
    },
    trialStarted: {
      title: 'Your free trial has started!',
      text: 'You were not charged. {merchant} will charge you {amount} {every} when the trial ends, with the method you just saved. You can cancel before then at no cost.',
      withFee: 'Only the setup fee of {fee} was charged. {merchant} will charge you {amount} {every} when the trial ends, with the method you just saved. You can cancel before then at no further cost.',
    },
    approvedText: {
      SUBSCRIPTION: 'Your {plan} subscription is active. {merchant} will charge you {amount} {every}.',
      SINGLE: 'Your payment of {amount} to {merchant} has been recorded.',
    },
  },
};

const copies: Record<Lang, Copy> = { es, en };

export function checkoutCopy(lang: Lang): Copy {
  return copies[lang];
}

/** Date and time of the link's expiry as a customer in Colombia reads it; the time never splits across lines. */
export function formatExpiry(epochMs: number, lang: Lang): string {
  const at = new Date(epochMs);
  const options = { timeZone: 'America/Bogota' } as const;
  const date = new Intl.DateTimeFormat(LANG_TAG[lang], { ...options, dateStyle: 'long' }).format(at);
  const time = new Intl.DateTimeFormat(LANG_TAG[lang], { ...options, timeStyle: 'short' }).format(at);
  return `${date}, ${time.replace(/\s/g, '\u00a0')}`;
}

/** What the page's session says a period costs, and what today's payment adds once. */
export interface PeriodPricing {
  amount: number;
  /** A billing day's first period (docs/billing.md#billing-day): `amount` is its prorated share, `fullAmount` each period's. */
  firstPeriod?: { fullAmount: number };
  /** Charged once with `amount` (docs/billing.md#setup-fee). */
  setupFee?: number;
}

/** What each period is charged: the session's amount less a setup fee, or in full after a prorated first period. */
export function periodAmount(session: PeriodPricing): number {
  return session.firstPeriod?.fullAmount ?? session.amount - (session.setupFee ?? 0);
}

/** A trial not yet started: its first charge, at the trial's end (less a coupon); the setup fee is charged today. */
export function trialFirstCharge(session: { amount: number; setupFee?: number; discount?: { amountDue: number } | null }): number {
  return (session.discount?.amountDue ?? session.amount) - (session.setupFee ?? 0);
}

/** What the form shows for one session: the pay button names what is charged now, the authorization what each period is. */
export function formCopy(
  lang: Lang,
  session: PeriodPricing & {
    planName: string;
    merchantName: string;
    modality: Modality;
    interval?: BillingInterval | null;
    discount?: { amountDue: number };
    trial?: unknown;
  },
): FormCopy {
  const { form } = copies[lang];
  const values = {
    plan: session.planName,
    merchant: session.merchantName,
    amount: formatCop(periodAmount(session)),
    every: everyInterval(session.interval, lang),
  };
  return {
    heading: form.heading,
    labels: form.labels,
    placeholders: form.placeholders,
    holderHint: form.holderHint,
    problems: form.problems,
    serverProblem: form.serverProblem,
    // A free trial's button starts it: nothing is charged today (docs/billing.md#trials).
    pay: session.trial ? form.startTrial : fill(form.pay, { ...values, amount: formatCop(session.discount?.amountDue ?? session.amount) }),
    processing: form.processing,
    tryAgain: form.tryAgain,
    authorization: fill(form.authorization[session.modality], values),
    ready: { title: form.ready.title, text: fill(form.ready.text, values) },
    status: {
      ...form.status,
      approved: { ...form.status.approved, text: fill(form.approvedText[session.modality], values) },
      // A trial's setup fee is charged as it starts (docs/billing.md#setup-fee).
      trialStarted: {
        title: form.trialStarted.title,
        text: session.setupFee ? fill(form.trialStarted.withFee, { ...values, fee: formatCop(session.setupFee) }) : fill(form.trialStarted.text, values),
      },
    },
  };
}
