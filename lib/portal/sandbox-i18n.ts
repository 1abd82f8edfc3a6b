// Pruebas (docs/portal.md#pruebas): the portal's words for the merchant's test clock and the
// e-mail log of a development or sandbox deployment. Spanish first; English with `?lang=en`.

import type { Lang } from '@/lib/checkout/i18n';

const es = {
  nav: 'Pruebas',
  clockNav: 'Reloj de prueba',
  emailsNav: 'Correos enviados',
  clockTitle: 'Reloj de prueba',
  clockIntro:
    'Mueva su propio reloj hacia adelante y sus planes se renuevan, reintentan, terminan su prueba gratis y reciben sus links de renovación como lo harían en esa fecha. Solo se mueven sus planes; los webhooks se envían de inmediato, con las fechas de su reloj.',
  realTime: 'Su cuenta está en tiempo real: no ha movido su reloj.',
  frozenAt: 'Su reloj está detenido en {at} (hora de Bogotá).',
  advancing: 'Su reloj está avanzando; recargue la página en unos segundos.',
  advanceTitle: 'Mover el reloj',
  advanceLabel: 'Mover a (fecha y hora de Bogotá)',
  advanceHint: 'Solo hacia adelante, y hasta 2 años desde hoy.',
  advance: 'Mover el reloj',
  advanced: 'Listo: su reloj está en {at}. Se hicieron {charges} cobros ({approved} aprobados, {declined} rechazados).',
  pending: 'Un momento…',
  problem: 'No pudimos mover el reloj:',
  missing: 'Escriba la fecha y la hora a la que quiere mover el reloj.',
  busy: 'Su reloj ya está avanzando. Espere a que termine e intente de nuevo.',
  lastTitle: 'Último avance',
  lastSummary: 'De {from} a {to}: {steps} pasos, {approved} cobros aprobados, {declined} rechazados, {links} links de renovación enviados, {notices} avisos de fin de prueba.',
  movedTitle: 'Planes que movió',
  noneMoved: 'El último avance no cambió ningún plan.',
  columns: { plan: 'Plan', reference: 'Referencia', status: 'Estado', next: 'Próximo cobro' },
  noDate: 'Sin fecha',
  resetTitle: 'Volver al tiempo real',
  resetIntro: 'Los planes que cree desde entonces viven en tiempo real; los que ya existen conservan sus fechas.',
  reset: 'Volver al tiempo real',
  resetDone: 'Listo: su cuenta volvió al tiempo real.',
  emailsTitle: 'Correos enviados',
  emailsIntro:
    'Los correos que recibieron sus clientes en esta instalación de pruebas, los más recientes primero, con sus links para gestionar la suscripción y pagar renovaciones. Solo ve los de su cuenta.',
  noEmails: 'Sus clientes aún no han recibido correos.',
  to: 'Para',
  sentAt: 'Fecha (su reloj)',
  kind: 'Tipo',
  links: 'Enlaces del correo',
  html: 'Ver el correo como se envió (HTML)',
};

export type SandboxCopy = typeof es;

const en: SandboxCopy = {
  nav: 'Testing',
  clockNav: 'Test clock',
  emailsNav: 'Sent e-mails',
  clockTitle: 'Test clock',
  clockIntro:
    'Move your own clock forward and your plans renew, retry, end their free trial and get their renewal links as they would by then. Only your plans move; webhooks are sent at once, with your clock’s dates.',
  realTime: 'Your account runs in real time: you have not moved your clock.',
  frozenAt: 'Your clock stands at {at} (Bogotá time).',
  advancing: 'Your clock is advancing; reload the page in a few seconds.',
  advanceTitle: 'Move the clock',
  advanceLabel: 'Move to (Bogotá date and time)',
  advanceHint: 'Forward only, and up to 2 years from today.',
  advance: 'Move the clock',
  advanced: 'Done: your clock is at {at}. {charges} charges were made ({approved} approved, {declined} declined).',
  pending: 'One moment…',
  problem: 'We could not move the clock:',
  missing: 'Enter the date and time to move the clock to.',
  busy: 'Your clock is already advancing. Wait for it to finish and try again.',
  lastTitle: 'Last advance',
  lastSummary: 'From {from} to {to}: {steps} steps, {approved} charges approved, {declined} declined, {links} renewal links sent, {notices} trial-end notices.',
  movedTitle: 'Plans it moved',
  noneMoved: 'The last advance changed no plan.',
  columns: { plan: 'Plan', reference: 'Reference', status: 'Status', next: 'Next charge' },
  noDate: 'No date',
  resetTitle: 'Back to real time',
  resetIntro: 'Plans you create from then on live in real time; existing ones keep their dates.',
  reset: 'Back to real time',
  resetDone: 'Done: your account is back in real time.',
  emailsTitle: 'Sent e-mails',
  emailsIntro:
    'The e-mails your customers got on this test installation, newest first, with their links to manage the subscription and pay renewals. You see only your account’s.',
  noEmails: 'Your customers have not been sent any e-mail yet.',
  to: 'To',
  sentAt: 'Date (your clock)',
  kind: 'Kind',
  links: 'Links in the e-mail',
  html: 'See the e-mail as sent (HTML)',
};

export function sandboxCopy(lang: Lang): SandboxCopy {
  return lang === 'en' ? en : es;
}
