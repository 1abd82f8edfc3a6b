// Registro de auditoría (docs/portal.md#audit-log): the portal's words for the audit log.
// Spanish first; English with the portal's `?lang=en`.

import type { Lang } from '@/lib/checkout/i18n';

const es = {
  nav: 'Registro de auditoría',
  title: 'Registro de auditoría',
  intro:
    'Cada cambio hecho en el portal, con una clave de API o por el operador: quién, desde qué dirección, qué cambió y cuándo. Los secretos se muestran enmascarados. Se conserva 2 años y nadie puede editarlo ni borrarlo.',
  listTitle: 'Cambios',
  none: 'Aún no hay cambios registrados.',
  filtered: 'Ningún cambio coincide con este filtro. Quite los filtros para ver todos.',
  clear: 'Quitar los filtros',
  search: 'Buscar (e-mail, clave, acción)',
  area: 'Área',
  anyArea: 'Todas',
  filter: 'Filtrar',
  exportCsv: 'Exportar CSV',
  newest: 'Ver los más recientes',
  older: 'Ver cambios anteriores',
  columns: { when: 'Cuándo', who: 'Quién', ip: 'Dirección IP', action: 'Acción', changes: 'Qué cambió' },
  actorTypes: { user: 'Usuario', api_key: 'Clave de API', operator: 'Operador', system: 'Sistema' },
  nothing: '—',
  removed: '(vacío)',
  apiCall: 'Llamada a la API',
  areas: {
    merchant: 'Ajustes del comercio',
    api_key: 'Claves de API',
    member: 'Equipo',
    account: 'Cuenta',
    api: 'API',
    operator: 'Operador',
    transaction: 'Cobros',
  },
  actions: {
    'merchant.created': 'Creó el comercio',
    'merchant.updated': 'Cambió los ajustes',
    'api_key.created': 'Creó una clave de API',
    'api_key.revoked': 'Revocó una clave de API',
    'transaction.refunded': 'Marcó un pago tardío como devuelto',
  } as Record<string, string>,
};

const en: typeof es = {
  nav: 'Audit log',
  title: 'Audit log',
  intro:
    'Every change made in the portal, with an API key or by the operator: who, from which address, what changed and when. Secrets are shown masked. Kept 2 years; nobody can edit or delete it.',
  listTitle: 'Changes',
  none: 'No changes recorded yet.',
  filtered: 'No change matches this filter. Clear the filters to see them all.',
  clear: 'Clear the filters',
  search: 'Search (e-mail, key, action)',
  area: 'Area',
  anyArea: 'All',
  filter: 'Filter',
  exportCsv: 'Export CSV',
  newest: 'See the newest',
  older: 'See older changes',
  columns: { when: 'When', who: 'Who', ip: 'IP address', action: 'Action', changes: 'What changed' },
  actorTypes: { user: 'User', api_key: 'API key', operator: 'Operator', system: 'System' },
  nothing: '—',
  removed: '(empty)',
  apiCall: 'API call',
  areas: { merchant: 'Merchant settings', api_key: 'API keys', member: 'Team', account: 'Account', api: 'API', operator: 'Operator', transaction: 'Charges' },
  actions: {
    'merchant.created': 'Created the merchant',
    'merchant.updated': 'Changed the settings',
    'api_key.created': 'Created an API key',
    'api_key.revoked': 'Revoked an API key',
    'transaction.refunded': 'Marked a late payment refunded',
  },
};

export type AuditCopy = typeof es;

export function auditCopy(lang: Lang): AuditCopy {
  return lang === 'en' ? en : es;
}
