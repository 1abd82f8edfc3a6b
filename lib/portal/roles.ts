import type { MemberRole } from '@/db/schema';
import type { Lang } from '@/lib/i18n/locale';

// Who may do what in a merchant's portal (docs/portal.md#members): owner
// (everything), admin (all but members and money settings), developer (API keys, webhooks,
// events), viewer (read only). Checked on the server by every portal action.

export type Permission = 'members' | 'money' | 'api_keys' | 'webhooks' | 'events' | 'business';

const GRANTS: Record<MemberRole, readonly Permission[]> = {
  owner: ['members', 'money', 'api_keys', 'webhooks', 'events', 'business'],
  admin: ['api_keys', 'webhooks', 'events', 'business'],
  developer: ['api_keys', 'webhooks', 'events'],
  viewer: [],
};

export function can(role: MemberRole, permission: Permission): boolean {
  return GRANTS[role].includes(permission);
}

/** The roles that may, least powerful first (what a refusal names). */
export function rolesThatMay(permission: Permission): MemberRole[] {
  return (['developer', 'admin', 'owner'] as const).filter((r) => can(r, permission));
}

export const ROLE_NAMES: Record<Lang, Record<MemberRole, string>> = {
  es: { owner: 'Propietario', admin: 'Administrador', developer: 'Desarrollador', viewer: 'Lector' },
  en: { owner: 'Owner', admin: 'Admin', developer: 'Developer', viewer: 'Viewer' },
};

/** The 403's words: the member's role and the roles it would take. */
export function roleRefusal(role: MemberRole, permission: Permission, lang: Lang): string {
  const names = ROLE_NAMES[lang];
  const needed = rolesThatMay(permission).map((r) => names[r]);
  return lang === 'en'
    ? `Forbidden (403): your role, ${names[role]}, cannot do this. It takes the role ${needed.join(' or ')}.`
    : `Prohibido (403): su rol, ${names[role]}, no permite esto. Hace falta el rol ${needed.join(' o ')}.`;
}
