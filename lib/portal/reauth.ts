import { APIError } from 'better-auth/api';
import type { Db } from '@/db/client';
import { getMerchantName } from '@/db/queries/merchants';
import { markSessionAuthenticated, sessionAuthenticatedAt } from '@/db/queries/users';
import type { AuditActor } from '@/lib/audit/record';
import { queueAccountEmail } from '@/lib/email/account';
import { inTransaction } from '@/lib/unit-of-work';
import { accountEmails } from './account-emails';
import { overLimit, type PortalUser } from './accounts';
import { getAuth } from './auth';
import { merchantOwners } from './members';
import { codeIsRight, twoFactorState } from './two-factor';

// Re-authentication before a change to money or integration settings, and the owners' notice
// after it (docs/portal.md#re-authentication).

export const REAUTH_WINDOW_MS = 5 * 60_000;

/** Until when the session may make a sensitive change, or null when it must re-authenticate first. */
export async function reauthenticatedUntil(db: Db, user: PortalUser, now: Date = new Date()): Promise<Date | null> {
  const at = await sessionAuthenticatedAt(db, user.sessionId);
  if (!at) return null;
  const until = new Date(at.getTime() + REAUTH_WINDOW_MS);
  return until > now ? until : null;
}

type ReauthResult = { ok: true } | { ok: false; problem: 'wrong_password' | 'wrong_code' } | { ok: false; problem: 'rate_limited'; retryAfterSeconds: number };

/** Checks the password (and the code of an enrolled user) and opens the 5-minute window on this session. 5 attempts a minute per user. */
export async function reauthenticate(db: Db, user: PortalUser, input: { password: unknown; code: unknown }, headers: Headers, now: Date = new Date()): Promise<ReauthResult> {
  const limited = await overLimit([['reauth', user.userId]]);
  if (limited) return limited;
  const password = typeof input.password === 'string' ? input.password : '';
  const code = typeof input.code === 'string' ? input.code : '';
  try {
    await (await getAuth()).api.verifyPassword({ body: { password }, headers });
  } catch (error) {
    if (error instanceof APIError && error.statusCode < 500) return { ok: false, problem: 'wrong_password' };
    throw error;
  }
  if ((await twoFactorState(db, user.userId)) === 'on' && !(code && (await codeIsRight(code, headers)))) return { ok: false, problem: 'wrong_code' };
  await markSessionAuthenticated(db, user.sessionId, now);
  return { ok: true };
}

/** What a sensitive change is called in the owners' e-mail. */
export type SensitiveChange = 'wompi_keys' | 'processor' | 'webhook_url' | 'webhook_secret' | 'api_key' | 'einvoicing_credentials';

const CHANGE_WORDS: Record<SensitiveChange, string> = {
  wompi_keys: 'las llaves de Wompi (a dónde llega el dinero)',
  processor: 'el procesador de pagos',
  webhook_url: 'la URL del webhook',
  webhook_secret: 'el secreto de firma de los webhooks',
  api_key: 'las claves de la API (creó una nueva)',
  einvoicing_credentials: 'las credenciales de facturación electrónica',
};

/** E-mails every owner of the merchant that `actor` made `change`, sent after commit. */
export async function tellOwners(db: Db, merchantId: string, change: SensitiveChange, actor: AuditActor): Promise<void> {
  await inTransaction(db, async (tx, outbox) => {
    const merchantName = (await getMerchantName(tx, merchantId)) ?? 'su comercio';
    for (const owner of await merchantOwners(tx, merchantId)) {
      const email = accountEmails.settingChanged(owner.name, merchantName, CHANGE_WORDS[change], actor.label, actor.ip);
      await queueAccountEmail(tx, outbox, { merchantId, kind: 'security_notice', to: owner.email, email });
    }
  });
}
