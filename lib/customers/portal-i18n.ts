import type { Lang } from '@/lib/i18n/locale';
import { LIFECYCLE_EVENT_TYPES, type LifecycleEventType } from '@/lib/webhooks/payload';

// The portal's words for the customers' side (docs/customers.md), kept beside lib/portal/i18n.ts
// so the features that use them stay in their own components.

const ES = {
  eventsTitle: 'Eventos del ciclo de vida',
  eventsIntro:
    'Los cuatro eventos de cobro se envían siempre. Elija además los eventos del plan que su servidor sabe recibir; hasta entonces no se envían ni se registran.',
  eventsSaved: 'Eventos guardados.',
  eventsProblem: 'No se pudieron guardar los eventos.',
  save: 'Guardar eventos',
  events: {
    'subscription.activated': 'Plan activado (primer cobro aprobado)',
    'subscription.paused': 'Plan pausado',
    'subscription.resumed': 'Plan reanudado',
    'subscription.cancelled': 'Plan cancelado (por usted, por el cliente o tras el último reintento)',
    'subscription.payment_method_updated': 'El cliente cambió su medio de pago',
    'subscription.updated': 'Cambio de precio (al momento, tras su cobro prorrateado, o desde la próxima renovación)',
    'subscription.renewal_due': 'Enlace de renovación emitido (con su URL y vencimiento, para enviarlo por otro canal)',
  } satisfies Record<LifecycleEventType, string>,
  customerTitle: 'Lado del cliente',
  manageLinkUses: 'Usos del enlace de gestión',
  manageLinkNone: 'El cliente aún no ha abierto ningún enlace de gestión.',
  manageLinkLast: 'Último uso',
  emailsTitle: 'Correos al cliente',
  emailsNone: 'Aún no se ha enviado ningún correo.',
  emailKinds: { receipt: 'Recibo', renewal_failed: 'Renovación fallida', cancelled: 'Cancelación', renewal_due: 'Enlace de renovación', price_change: 'Cambio de precio' },
  emailSent: 'Enviado',
  emailKept: 'Guardado (sin SMTP)',
  emailPending: 'Pendiente',
  emailFailed: 'Falló',
  emailNextAttempt: 'Próximo intento',
  emailGivenUp: 'No se pudo enviar tras {attempts} intentos',
  emailResend: 'Enviar de nuevo',
  emailResent: 'Correo enviado.',
  emailResendFailed: 'No se pudo enviar otra vez: {error}. Pruebe más tarde.',
  emailNotGivenUp: 'Este correo ya fue enviado o aún tiene intentos programados.',
};

const EN: typeof ES = {
  eventsTitle: 'Lifecycle events',
  eventsIntro:
    'The four charge events are always sent. Choose as well the plan events your server knows how to receive; until then they are neither sent nor recorded.',
  eventsSaved: 'Events saved.',
  eventsProblem: 'The events could not be saved.',
  save: 'Save events',
  events: {
    'subscription.activated': 'Plan activated (first charge approved)',
    'subscription.paused': 'Plan paused',
    'subscription.resumed': 'Plan resumed',
    'subscription.cancelled': 'Plan cancelled (by you, by the customer or after the last retry)',
    'subscription.payment_method_updated': 'The customer replaced the payment method',
    'subscription.updated': 'Price change (at once, after its prorated charge, or from the next renewal)',
    'subscription.renewal_due': 'Renewal link issued (with its URL and expiry, to send it by another channel)',
  },
  customerTitle: "Customer's side",
  manageLinkUses: 'Manage-link uses',
  manageLinkNone: 'The customer has not opened a manage link yet.',
  manageLinkLast: 'Last use',
  emailsTitle: 'E-mails to the customer',
  emailsNone: 'No e-mail sent yet.',
  emailKinds: { receipt: 'Receipt', renewal_failed: 'Failed renewal', cancelled: 'Cancellation', renewal_due: 'Renewal link', price_change: 'Price change' },
  emailSent: 'Sent',
  emailKept: 'Kept (no SMTP)',
  emailPending: 'Pending',
  emailFailed: 'Failed',
  emailNextAttempt: 'Next attempt',
  emailGivenUp: 'Could not be sent after {attempts} attempts',
  emailResend: 'Send again',
  emailResent: 'E-mail sent.',
  emailResendFailed: 'Could not be sent again: {error}. Try later.',
  emailNotGivenUp: 'This e-mail was already sent or still has attempts scheduled.',
};

export const CUSTOMER_PORTAL_COPY: Record<Lang, typeof ES> = { es: ES, en: EN };
export { LIFECYCLE_EVENT_TYPES };
