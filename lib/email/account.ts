// E-mails about a merchant's portal accounts (docs/portal.md#accounts), queued like every e-mail
// (record.ts); no plan, and never in the sandbox's e-mail log (their links are credentials).

import type { Db } from '@/db/client';
import type { ACCOUNT_EMAIL_KINDS } from '@/db/schema';
import type { Outbox } from '@/lib/outbox';
import { queueMerchantEmail } from './record';

export type AccountEmailKind = (typeof ACCOUNT_EMAIL_KINDS)[number];

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface AccountEmail {
  subject: string;
  lines: string[];
  action?: { label: string; url: string };
}

export function renderAccountEmail({ subject, lines, action }: AccountEmail): { subject: string; text: string; html: string } {
  const p = (text: string) => `<p style="margin:0 0 12px 0;font-size:16px;line-height:24px;color:#14213d;overflow-wrap:anywhere">${escapeHtml(text)}</p>`;
  return {
    subject,
    text: [...lines.flatMap((l) => [l, '']), ...(action ? [`${action.label}: ${action.url}`] : [])].join('\n'),
    html: [
      '<!doctype html>',
      `<html lang="es-CO"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(subject)}</title></head>`,
      '<body style="margin:0;padding:24px 12px;background:#f7f8fa;font-family:Arial,Helvetica,sans-serif">',
      '<div style="max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #d9dee7;border-radius:8px;padding:24px">',
      ...lines.map(p),
      ...(action
        ? [`<p style="margin:20px 0"><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#0b6e4f;color:#ffffff;font-size:16px;font-weight:bold;text-decoration:none;padding:12px 20px;border-radius:6px">${escapeHtml(action.label)}</a></p>`]
        : []),
      '</div></body></html>',
    ].join('\n'),
  };
}

/** Writes an account e-mail in the caller's unit of work, sent after commit. */
export async function queueAccountEmail(
  tx: Db,
  outbox: Outbox,
  { merchantId, kind, to, email, now = new Date() }: { merchantId: string; kind: AccountEmailKind; to: string; email: AccountEmail; now?: Date },
): Promise<void> {
  await queueMerchantEmail(tx, outbox, { merchantId, planId: null, transactionId: null, kind, toAddress: to, ...renderAccountEmail(email), createdAt: now });
}
