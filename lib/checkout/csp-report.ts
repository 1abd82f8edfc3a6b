// CSP violation reports of the checkout and the manage page (docs/checkout.md#csp-reports); a
// page's token and a blocked URL's path are never kept.

export const CSP_REPORT_PATH = '/checkout/csp-report';
export const CSP_REPORT_MAX_BYTES = 16 * 1024;

export interface CspViolation {
  page: string;
  directive: string;
  blocked: string;
  disposition: string;
}

const TOKEN_IN_PATH = /^\/(pay|manage)\/[^/]+/;

function pathOf(url: unknown): string {
  if (typeof url !== 'string') return '';
  try {
    return new URL(url).pathname.replace(TOKEN_IN_PATH, '/$1/…').slice(0, 200);
  } catch {
    return '';
  }
}

function originOf(url: unknown): string {
  if (typeof url !== 'string') return '';
  try {
    return new URL(url).origin;
  } catch {
    return url.slice(0, 40);
  }
}

const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 200) : '');

/**
 * The violations in a report body: the legacy `report-uri` form (`{ "csp-report": {…} }`) or the
 * Reporting API's list (`[{ "type": "csp-violation", "body": {…} }]`); null for anything else.
 */
export function cspViolations(body: unknown): CspViolation[] | null {
  if (body && typeof body === 'object' && !Array.isArray(body) && 'csp-report' in body) {
    const r = (body as Record<string, Record<string, unknown> | undefined>)['csp-report'];
    if (!r || typeof r !== 'object') return null;
    return [{ page: pathOf(r['document-uri']), directive: text(r['effective-directive'] ?? r['violated-directive']), blocked: originOf(r['blocked-uri']), disposition: text(r.disposition) }];
  }
  if (Array.isArray(body)) {
    const reports = body.filter((r): r is { type: string; body: Record<string, unknown> } => r && r.type === 'csp-violation' && r.body && typeof r.body === 'object');
    if (reports.length === 0) return null;
    return reports.slice(0, 20).map(({ body: b }) => ({ page: pathOf(b.documentURL), directive: text(b.effectiveDirective), blocked: originOf(b.blockedURL), disposition: text(b.disposition) }));
  }
  return null;
}
