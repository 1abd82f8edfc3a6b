// Ajustes → Procesador (docs/portal.md): the portal's words for the merchant's processor.
// Spanish first; English with the portal's `?lang=en`.

import { bilingual } from '@/lib/i18n/locale';

export const processorCopy = bilingual(
  {
    nav: 'Procesador',
    title: 'Procesador de pagos',
    intro: 'Sus clientes pagan a través de su propia cuenta de Wompi: el dinero llega a su cuenta, nunca a ServicePay. Mientras no configure Wompi, se usa el sandbox integrado, que no mueve dinero real.',
    current: 'Procesador actual',
    sandbox: 'Sandbox de ServicePay (pagos de prueba)',
    wompi: 'Wompi',
    publicKey: 'Llave pública',
    productionNoKeys:
      'Este es un entorno de producción: sin llaves de Wompi sus links de pago se muestran como «no disponibles» y nadie puede pagar. Configure sus llaves de producción para empezar a cobrar.',
    keysTitle: 'Llaves de Wompi',
    keysIntro: 'Cópielas del panel de Wompi (Desarrolladores → Llaves del API). Las llaves secretas se guardan cifradas y no se vuelven a mostrar: para cambiarlas, escríbalas de nuevo.',
    prefixes: 'En este entorno las llaves empiezan por {prefixes}.',
    offAmount:
      'Atención: {count} de sus planes vigentes tienen un monto que Wompi rechazaría (pesos con centavos, o menos de $1.500, el mínimo para tarjetas). Con Wompi esos cobros fallarán: cancélelos y cree links nuevos con un monto en pesos enteros de al menos $1.500.',
    labels: { publicKey: 'Llave pública', privateKey: 'Llave privada', eventsSecret: 'Secreto de eventos', integritySecret: 'Secreto de integridad' },
    stored: 'Guardada: {masked}',
    save: 'Guardar llaves',
    saved: 'Listo: sus pagos se procesan con su cuenta de Wompi.',
    problem: 'No pudimos guardar las llaves:',
    eventsTitle: 'URL de eventos',
    eventsIntro: 'Pegue esta URL en el panel de Wompi (Desarrolladores → URL de eventos) para que los pagos se confirmen en cuanto Wompi los decida.',
    sandboxTitle: 'Volver al sandbox',
    sandboxIntro: 'Borra sus llaves de Wompi. Sus clientes pagarán en el sandbox (solo fuera de producción).',
    useSandbox: 'Usar el sandbox',
    sandboxSaved: 'Listo: se borraron sus llaves de Wompi.',
    copy: 'Copiar',
    copied: 'Copiado',
  },
  {
    nav: 'Processor',
    title: 'Payment processor',
    intro: 'Your customers pay through your own Wompi account: the money reaches your account, never ServicePay. Until you set up Wompi, the built-in sandbox is used, which moves no real money.',
    current: 'Current processor',
    sandbox: 'ServicePay sandbox (test payments)',
    wompi: 'Wompi',
    publicKey: 'Public key',
    productionNoKeys: 'This is a production deployment: without Wompi keys your payment links show as "unavailable" and nobody can pay. Set your production keys to start charging.',
    keysTitle: 'Wompi keys',
    keysIntro: "Copy them from Wompi's dashboard (Developers → API keys). Secret keys are stored encrypted and never shown again: to change them, type them again.",
    prefixes: 'In this deployment the keys begin with {prefixes}.',
    offAmount:
      'Warning: {count} of your open plans have an amount Wompi would refuse (pesos with cents, or under $1,500, the card minimum). With Wompi those charges will fail: cancel them and create new links for whole pesos of at least $1,500.',
    labels: { publicKey: 'Public key', privateKey: 'Private key', eventsSecret: 'Events secret', integritySecret: 'Integrity secret' },
    stored: 'Stored: {masked}',
    save: 'Save keys',
    saved: 'Done: your payments go through your Wompi account.',
    problem: 'We could not save the keys:',
    eventsTitle: 'Events URL',
    eventsIntro: "Paste this URL in Wompi's dashboard (Developers → Events URL) so payments are confirmed as soon as Wompi decides them.",
    sandboxTitle: 'Back to the sandbox',
    sandboxIntro: 'Deletes your Wompi keys. Your customers will pay in the sandbox (outside production only).',
    useSandbox: 'Use the sandbox',
    sandboxSaved: 'Done: your Wompi keys were deleted.',
    copy: 'Copy',
    copied: 'Copied',
  },
);


/** A secret as the portal shows it once stored: its prefix only, never a character of the secret itself. */
export function maskSecret(prefix: string): string {
  return `${prefix}••••••••`;
}
