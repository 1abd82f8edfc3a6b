// GET /api/openapi.json: the OpenAPI 3.1 document of this deployment (rendered at /docs)
import { jsonResponse, withApi } from '@/lib/api/handler';
import { openApiDocument } from '@/lib/openapi/document';
import { OPERATIONS } from './operations';

// The document names this deployment's APP_URL, read at start-up: never prerendered at build.
export const dynamic = 'force-dynamic';

export const GET = withApi(async () =>
  jsonResponse(openApiDocument(OPERATIONS), { headers: { 'Cache-Control': 'public, max-age=300' } }),
);
