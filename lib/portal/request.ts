import { headers } from 'next/headers';
import { cache } from 'react';
import { forbidden, notFound, redirect } from 'next/navigation';
import { getDb } from '@/db/client';
import { ApiError } from '@/lib/api/errors';
import { env } from '@/lib/env';
import { isProductionDeployment } from '@/lib/processors/secret-box';
import { merchantSuspended } from '@/lib/merchants/suspension';
import { LANG_HEADER, type Lang } from '@/lib/i18n/locale';
import { clientIp } from '@/lib/api/with-checkout';
import type { AuditActor } from '@/lib/audit/record';
import { currentUser, type PortalUser } from './accounts';
import { errorState, type FormState } from './form-state';
import { PORTAL_COPY, type PortalCopy } from './i18n';
import { reauthenticatedUntil } from './reauth';
import { can, type Permission, roleRefusal } from './roles';
import { securityCopy } from './security-i18n';

// What every portal page and action starts from: the request's language and its signed-in user.

/** Where a suspended merchant's attempt to change something lands. */
export const SUSPENDED_PATH = '/portal/overview?suspended=1';

export async function portalLang(): Promise<{ lang: Lang; t: PortalCopy }> {
  const lang = (await headers()).get(LANG_HEADER) === 'en' ? 'en' : 'es';
  return { lang, t: PORTAL_COPY[lang] };
}

/** Where an owner who must turn on a second factor is sent (docs/portal.md#accounts). */
export const SECOND_FACTOR_PATH = '/portal/settings/security?required=1';

/** Owners of a production deployment work with a second factor on (docs/portal.md#accounts). */
export function secondFactorMissing(user: Pick<PortalUser, 'role' | 'twoFactorEnabled'>, settings = env()): boolean {
  return user.role === 'owner' && !user.twoFactorEnabled && isProductionDeployment(settings);
}

/** The signed-in user; anyone else is sent to sign in, an owner missing the second factor to turn it on. */
export async function requireUser(): Promise<PortalUser> {
  const user = await requireAccount();
  if (secondFactorMissing(user)) redirect(SECOND_FACTOR_PATH);
  return user;
}

/** The signed-in member's role, read once per request (components/portal/allowed.tsx). */
export const memberRole = cache(async () => (await requireUser()).role);

/** `requireUser` without the second-factor rule: the frame, Ajustes → Seguridad and its actions. */
export async function requireAccount(): Promise<PortalUser> {
  const user = await currentUser(await headers());
  if (!user) redirect('/portal/sign-in');
  return user;
}

/** The audit log's actor for a portal user acting from these headers. */
export function userActor(user: PortalUser, requestHeaders: Headers): AuditActor {
  return { type: 'user', id: user.userId, label: user.email, ip: clientIp({ headers: requestHeaders }) };
}

/**
 * An action's start: the signed-in user, language and audit actor, and `refused`, the 403 naming
 * the role when the member's role lacks `permission` (lib/portal/roles.ts), which the action
 * returns unchanged. A suspended merchant's goes back to the overview.
 */
export async function signedIn(permission: Permission): Promise<PortalUser & { lang: Lang; t: PortalCopy; actor: AuditActor; refused: FormState | null }> {
  const user = await requireUser();
  if (await merchantSuspended(await getDb(), user.merchantId)) redirect(SUSPENDED_PATH);
  const lang = await portalLang();
  const refused = can(user.role, permission) ? null : errorState(roleRefusal(user.role, permission, lang.lang));
  return { ...user, ...lang, actor: userActor(user, await headers()), refused };
}

/** Loads a resource of the merchant; another merchant's becomes the 403 page, a missing one the 404. */
export async function ownedOrInterrupt<T>(load: Promise<T>): Promise<T> {
  try {
    return await load;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'forbidden') forbidden();
    if (error instanceof ApiError && error.code === 'not_found') notFound();
    throw error;
  }
}

/**
 * A sensitive change's start (lib/portal/reauth.ts): `signedIn`, and `refused` also when this
 * session did not give the password (and code) within the last 5 minutes; nothing is changed then.
 */
export async function signedInRecently(permission: Permission): ReturnType<typeof signedIn> {
  const user = await signedIn(permission);
  if (user.refused || (await reauthenticatedUntil(await getDb(), user))) return user;
  return { ...user, refused: errorState(securityCopy(user.lang).reauth.needed) };
}
