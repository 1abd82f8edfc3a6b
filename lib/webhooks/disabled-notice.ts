// The e-mail to a merchant whose webhook endpoint was disabled after 3 days of failures.

import { renderAccountEmail } from '@/lib/email/account';

const dateOf = (date: Date) => new Intl.DateTimeFormat('es-CO', { dateStyle: 'long', timeStyle: 'short', timeZone: 'America/Bogota' }).format(date);

interface DisabledNotice {
  merchantName: string;
  webhookUrl: string;
  failingSince: Date;
  settingsUrl: string;
}

export function renderDisabledNotice(n: DisabledNotice): { subject: string; text: string; html: string } {
  const subject = 'Desactivamos su webhook de ServicePay';
  const lines = [
    `Hola, equipo de ${n.merchantName}:`,
    `Todas las entregas de webhooks a ${n.webhookUrl} fallaron desde el ${dateOf(n.failingSince)}, también sus reintentos durante 3 días, así que dejamos de enviarlas.`,
    'Los eventos siguen registrándose. Revise su servidor, reactive el webhook en el portal y reenvíe desde Actividad los eventos que le falten.',
  ];
  return renderAccountEmail({ subject, lines, action: { label: 'Revisar los webhooks', url: n.settingsUrl } });
}
