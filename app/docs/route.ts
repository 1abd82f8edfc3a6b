// GET /docs: the API reference, rendered by Scalar from /api/openapi.json
import { REFERENCE_CSP, referencePageHtml } from '@/lib/openapi/reference-page';

// A route handler rather than a page: the whole document is Scalar's, and its
// Content-Security-Policy (scripts from this origin only) cannot be met by a Next page's inline
// scripts without a nonce-setting proxy.
export const dynamic = 'force-dynamic';

export function GET() {
  return new Response(referencePageHtml('/api/openapi.json'), {
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': REFERENCE_CSP,
      'Cache-Control': 'public, max-age=300',
      'Referrer-Policy': 'no-referrer',
    },
  });
}
