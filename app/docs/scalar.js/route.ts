// GET /docs/scalar.js: Scalar's browser bundle, served from this origin for /docs (no CDN)
import { scalarBundleResponse } from '@/lib/openapi/reference-page';

export const dynamic = 'force-dynamic';

export function GET(req: Request) {
  return scalarBundleResponse(new URL(req.url).searchParams.get('v'));
}
