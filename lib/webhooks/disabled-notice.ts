// The e-mail to a merchant whose webhook endpoint was disabled after 3 days of failures
// (docs/webhooks.md#retries), in Spanish, as text and one-column HTML.

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const dateOf = (date: Date) => new Intl.DateTimeFormat('es-CO', { dateStyle: 'long', timeStyle: 'short', timeZone: 'America/Bogota' }).format(date);

interface DisabledNotice {
  merchantName: string;
  webhookUrl: string;
  failingSince: Date;
  /** The portal's webhook settings, where the endpoint is re-enabled. */
  settingsUrl: string;
}

export function renderDisabledNotice(n: DisabledNotice): { subject: string; text: string; html: string } {
  const subject = 'Desactivamos su webhook de ServicePay';
  const lines = [
    `Hola, equipo de ${n.merchantName}:`,
    `Todas las entregas de webhooks a ${n.webhookUrl} fallaron desde el ${dateOf(n.failingSince)}, también sus reintentos durante 3 días, así que dejamos de enviarlas.`,
    'Los eventos siguen registrándose. Revise su servidor, reactive el webhook en el portal y reenvíe desde Actividad los eventos que le falten.',
  ];
  const action = 'Revisar los webhooks';
  const p = (text: string) => `<p style="margin:0 0 12px 0;font-size:16px;line-height:24px;color:#14213d;overflow-wrap:anywhere">${escapeHtml(text)}</p>`;
  return {
    subject,
    text: [...lines.flatMap((l) => [l, '']), `${action}: ${n.settingsUrl}`].join('\n'),
    html: [
      '<!doctype html>',
      `<html lang="es-CO"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(subject)}</title></head>`,
      '<body style="margin:0;padding:24px 12px;background:#f7f8fa;font-family:Arial,Helvetica,sans-serif">',
      '<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #d9dee7;border-radius:8px;padding:24px">',
      ...lines.map(p),
      `<p style="margin:20px 0"><a href="${escapeHtml(n.settingsUrl)}" style="display:inline-block;background:#0b6e4f;color:#ffffff;font-size:16px;font-weight:bold;text-decoration:none;padding:12px 20px;border-radius:6px">${escapeHtml(action)}</a></p>`,
      '</div></body></html>',
    ].join('\n'),
  };
}
