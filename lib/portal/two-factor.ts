import { APIError } from 'better-auth/api';
import QRCode from 'qrcode';
import type { Db } from '@/db/client';
import { findTwoFactor } from '@/db/queries/users';
import { type AuditActor, recordAudit } from '@/lib/audit/record';
import { inTransaction } from '@/lib/unit-of-work';
import { overLimit, type PortalUser } from './accounts';
import { getAuth } from './auth';

// The second factor with better-auth's twoFactor plugin: TOTP and backup codes (docs/portal.md#accounts).

const apiCode = (error: unknown) => (error instanceof APIError ? String(error.body?.code ?? '') : '');
const TOTP_CODE = /^\d{6}$/;

export type TwoFactorState = 'off' | 'pending' | 'on';

export async function twoFactorState(db: Db, userId: string): Promise<TwoFactorState> {
  const row = await findTwoFactor(db, userId);
  if (!row) return 'off';
  return row.verified ? 'on' : 'pending';
}

type Started = { ok: true; totpURI: string; secret: string; qrSvg: string; backupCodes: string[] };
type Problem<P extends string> = { ok: false; problem: P };
type Limited = { ok: false; problem: 'rate_limited'; retryAfterSeconds: number };

/** Starts enrolment: the secret (as a QR code and as text) and the backup codes, shown once. */
export async function startTwoFactor(user: PortalUser, password: string, headers: Headers): Promise<Started | Problem<'wrong_password' | 'already_on'> | Limited> {
  const limited = await overLimit([['reauth', user.userId]]);
  if (limited) return limited;
  try {
    const answer = await (await getAuth()).api.enableTwoFactor({ body: { password, method: 'totp' }, headers });
    if (answer.method !== 'totp') throw new Error('enableTwoFactor answered no TOTP secret');
    const { totpURI, backupCodes } = answer;
    const secret = new URL(totpURI).searchParams.get('secret') ?? '';
    const qrSvg = await QRCode.toString(totpURI, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
    return { ok: true, totpURI, secret, qrSvg, backupCodes };
  } catch (error) {
    if (apiCode(error) === 'TOTP_ALREADY_ENABLED') return { ok: false, problem: 'already_on' };
    if (error instanceof APIError && error.statusCode < 500) return { ok: false, problem: 'wrong_password' };
    throw error;
  }
}

/** Checks a code (TOTP, or a backup code, which is then used up) of the signed-in user; throws what better-auth throws. */
async function checkCode(code: string, headers: Headers): Promise<void> {
  const auth = await getAuth();
  if (TOTP_CODE.test(code)) await auth.api.verifyTOTP({ body: { code }, headers });
  else await auth.api.verifyBackupCode({ body: { code }, headers });
}

/** Ends enrolment with a first code from the app: the second factor is on from now on. */
export async function confirmTwoFactor(db: Db, user: PortalUser, code: string, headers: Headers, actor: AuditActor): Promise<{ ok: true } | Problem<'wrong_code' | 'not_started'> | Limited> {
  const limited = await overLimit([['reauth', user.userId]]);
  if (limited) return limited;
  if ((await twoFactorState(db, user.userId)) !== 'pending') return { ok: false, problem: 'not_started' };
  if (!TOTP_CODE.test(code.trim())) return { ok: false, problem: 'wrong_code' };
  try {
    await (await getAuth()).api.verifyTOTP({ body: { code: code.trim() }, headers });
  } catch (error) {
    if (error instanceof APIError && error.statusCode < 500) return { ok: false, problem: 'wrong_code' };
    throw error;
  }
  await inTransaction(db, (tx) => recordAudit(tx, { merchantId: user.merchantId, actor, action: 'account.two_factor_enabled', target: user.email }));
  return { ok: true };
}

/** Turns the second factor off: the password and a current code (or a backup code). */
export async function disableTwoFactor(
  db: Db,
  user: PortalUser,
  input: { password: string; code: string },
  headers: Headers,
  actor: AuditActor,
): Promise<{ ok: true } | Problem<'wrong_code' | 'wrong_password'> | Limited> {
  const limited = await overLimit([['reauth', user.userId]]);
  if (limited) return limited;
  try {
    await checkCode(input.code.trim(), headers);
  } catch (error) {
    if (error instanceof APIError && error.statusCode < 500) return { ok: false, problem: 'wrong_code' };
    throw error;
  }
  try {
    await (await getAuth()).api.disableTwoFactor({ body: { password: input.password }, headers });
  } catch (error) {
    if (error instanceof APIError && error.statusCode < 500) return { ok: false, problem: 'wrong_password' };
    throw error;
  }
  await inTransaction(db, (tx) => recordAudit(tx, { merchantId: user.merchantId, actor, action: 'account.two_factor_disabled', target: user.email }));
  return { ok: true };
}

/** Whether the signed-in user's code is right (a backup code is used up); for re-authentication. */
export async function codeIsRight(code: string, headers: Headers): Promise<boolean> {
  try {
    await checkCode(code.trim(), headers);
    return true;
  } catch (error) {
    if (error instanceof APIError && error.statusCode < 500) return false;
    throw error;
  }
}

/**
 * The sign-in's second step: the code of the user whose password was just right (better-auth's
 * signed two-factor cookie names them, for 10 minutes and 5 tries). The session opens here.
 */
export async function verifySignInCode(code: unknown, headers: Headers): Promise<{ ok: true } | Problem<'wrong_code' | 'expired'>> {
  const value = typeof code === 'string' ? code.trim() : '';
  if (!value) return { ok: false, problem: 'wrong_code' };
  try {
    await checkCode(value, headers);
    return { ok: true };
  } catch (error) {
    const problem = apiCode(error);
    if (problem === 'INVALID_TWO_FACTOR_COOKIE' || problem === 'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE') return { ok: false, problem: 'expired' };
    if (error instanceof APIError && error.statusCode < 500) return { ok: false, problem: 'wrong_code' };
    throw error;
  }
}
