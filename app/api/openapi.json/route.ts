// GET /api/openapi.json[?version=YYYY-MM-DD]: the OpenAPI 3.1 document of this deployment, of one
// API version (the newest by default; rendered at /docs)
import { LATEST_API_VERSION } from '@/lib/api-versions';
import { jsonResponse, withApi } from '@/lib/api/handler';
import { versionOrFallback } from '@/lib/api/version-header';
import { openApiDocument } from '@/lib/openapi/document';
import { OPERATIONS } from './operations';

// The document names this deployment's APP_URL, read at start-up: never prerendered at build.
export const dynamic = 'force-dynamic';

export const GET = withApi(async (req) => {
  const version = versionOrFallback(new URL(req.url).searchParams.get('version'), LATEST_API_VERSION, { name: 'version' });
  return jsonResponse(openApiDocument(OPERATIONS, version), { headers: { 'Cache-Control': 'public, max-age=300' } });
});
