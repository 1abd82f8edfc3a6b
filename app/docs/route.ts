// GET /docs[?version=YYYY-MM-DD]: the API reference of one API version, rendered by Scalar from
// /api/openapi.json?version=…
import { API_VERSIONS, isApiVersion, LATEST_API_VERSION } from '@/lib/api-versions';
import { REFERENCE_CSP, referencePageHtml } from '@/lib/openapi/reference-page';

// A route handler rather than a page: the whole document is Scalar's, and its
// Content-Security-Policy (scripts from this origin only) cannot be met by a Next page's inline
// scripts without a nonce-setting proxy.
export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  const asked = new URL(req.url).searchParams.get('version');
  if (asked !== null && !isApiVersion(asked)) {
    return new Response(`No API version ${JSON.stringify(asked.slice(0, 40))}: the versions are ${API_VERSIONS.join(', ')}.\n`, {
      status: 400,
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
    });
  }
  const version = asked ?? LATEST_API_VERSION;
  return new Response(referencePageHtml(`/api/openapi.json?version=${version}`, version), {
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': REFERENCE_CSP,
      'Cache-Control': 'public, max-age=300',
      'Referrer-Policy': 'no-referrer',
    },
  });
}
