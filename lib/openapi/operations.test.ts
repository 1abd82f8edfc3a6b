import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Operation } from '@/lib/api/operation';
import { OPERATIONS } from '@/app/api/openapi.json/operations';

// Every route file's exports, imported, against the list of declarations the document is built
// from: each HTTP method a route exports serves a declared operation (the very object in the
// list, at the route's own path), and each declaration is served by its route.

const ROOT = process.cwd();
const HTTP_METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Routes that are not operations of the API, each with its reason. */
const NOT_OPERATIONS: Record<string, string> = {
  'GET /api/inngest': "Inngest's own endpoint (lib/inngest), described by Inngest",
  'POST /api/inngest': "Inngest's own endpoint",
  'PUT /api/inngest': "Inngest's own endpoint",
  'GET /api/openapi.json': 'the document itself',
  'GET /docs': 'the reference page rendering the document',
  'GET /docs/scalar.js': "the reference page's script",
  'POST /pay/{token}/card': "the checkout's card form posted without JavaScript: an HTML form answered with a 303, not JSON",
  'POST /pay/{token}/promotion-code': "the checkout's coupon-code form, a plain form post answered with a 303, not JSON",
  'POST /pay/{token}/buyer': "the checkout's invoice-buyer form, a plain form post answered with a 303, not JSON",
  'GET /portal/export/plans': "the portal's CSV download, behind the portal's sign-in, not the API",
  'GET /portal/export/transactions': "the portal's CSV download, behind the portal's sign-in, not the API",
  'GET /portal/export/audit': "the portal's CSV download of the audit log, behind the portal's sign-in, not the API",
  'GET /portal/export/invoices': "the portal's CSV download of electronic invoices, behind the portal's sign-in, not the API",
  'GET /portal/receipts/{transactionId}': "the portal's receipt PDF download, behind the portal's sign-in, not the API",
  'POST /manage/{token}/cancel': "the manage page's cancel form, a plain form post answered with a 303, not the API",
  'POST /manage/{token}/buyer': "the manage page's invoice-buyer form, a plain form post answered with a 303, not the API",
  'POST /manage/{token}/method': "the manage page's payment-method form, a plain form post answered with a 303, not the API",
  'GET /manage/{token}/receipts/{transactionId}': "the customer's receipt PDF from the manage page, a download for a person, not the API",
  'POST /checkout/csp-report': "where browsers send the checkout's and manage page's Content-Security-Policy violations, not the API",
};

/** Every route.ts under app/, as its URL path (Next's [param] folders as {param}). */
function routeFiles(dir = path.join(ROOT, 'app')): { file: string; urlPath: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(file);
    if (!/^route\.tsx?$/.test(entry.name)) return [];
    const urlPath = `/${path.relative(path.join(ROOT, 'app'), dir)}`.split(path.sep).join('/').replace(/\[([^\]]+)\]/g, '{$1}');
    return [{ file, urlPath }];
  });
}

async function exportedRoutes() {
  const routes: { key: string; urlPath: string; operation?: Operation }[] = [];
  for (const { file, urlPath } of routeFiles()) {
    const exports = (await import(file)) as Record<string, unknown>;
    for (const method of HTTP_METHODS) {
      const handler = exports[method] as { operation?: Operation } | undefined;
      if (handler) routes.push({ key: `${method} ${urlPath}`, urlPath, operation: handler.operation });
    }
  }
  return routes;
}

describe('the operations', () => {
  it('are served each by the route at its path, and every route export serves one', async () => {
    const routes = await exportedRoutes();
    expect(routes.map((r) => r.key)).toEqual(expect.arrayContaining(['POST /merchants/subscription-link', 'GET /api/health']));
    for (const route of routes) {
      if (route.key in NOT_OPERATIONS) {
        expect(route.operation, route.key).toBeUndefined();
        continue;
      }
      expect(route.operation, `${route.key} has no operation.ts declaration`).toBeDefined();
      expect(OPERATIONS, `${route.key}: its declaration is missing from app/api/openapi.json/operations.ts`).toContain(route.operation);
      expect(`${route.operation!.method} ${route.operation!.path}`).toBe(route.key);
    }
    const served = routes.map((r) => r.operation).filter(Boolean);
    for (const op of OPERATIONS) expect(served, `${op.method} ${op.path} has no route`).toContain(op);
    expect(Object.keys(NOT_OPERATIONS).filter((key) => !routes.some((r) => r.key === key))).toEqual([]);
  });

  it('are declared once, with unique operation ids, path parameters that match the path, and a rate limit where one applies', () => {
    const keys = OPERATIONS.map((op) => `${op.method} ${op.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    const ids = OPERATIONS.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const op of OPERATIONS) {
      const inPath = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
      expect(Object.keys(op.params ?? {}).sort(), op.path).toEqual(inPath);
      expect(op.limit !== undefined, `${op.method} ${op.path}`).toBe(op.auth === 'merchant' || op.auth === 'checkout');
      expect(op.sample.path.startsWith(op.path.split('{')[0]!), op.path).toBe(true);
    }
  });
});
