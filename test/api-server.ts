import { readdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

// The API's real route handlers (every app/**/route.ts) behind a real HTTP server on loopback, as
// Next's router would call them: the SDK's tests (packages/node/test) talk to it over HTTP, with
// no mock between the client and our code. Next's own server is the e2e journey's (e2e/sdk-journey.spec.ts).

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Response | Promise<Response>;

interface Route {
  method: string;
  pattern: RegExp;
  names: string[];
  handler: Handler;
}

async function loadRoutes(dir: string, base = dir): Promise<Route[]> {
  const routes: Route[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) routes.push(...(await loadRoutes(file, base)));
    else if (/^route\.tsx?$/.test(entry.name)) {
      const segments = path.relative(base, dir).split(path.sep);
      const names = segments.filter((s) => /^\[.+\]$/.test(s)).map((s) => s.slice(1, -1));
      const pattern = new RegExp(`^/${segments.map((s) => (/^\[.+\]$/.test(s) ? '([^/]+)' : s.replace(/[.]/g, '\\.'))).join('/')}$`);
      const exports = (await import(file)) as Record<string, unknown>;
      for (const method of ['GET', 'POST', 'PATCH', 'DELETE']) {
        if (typeof exports[method] === 'function') routes.push({ method, pattern, names, handler: exports[method] as Handler });
      }
    }
  }
  return routes;
}

export interface ApiServer {
  url: string;
  close(): Promise<void>;
}

/** Starts the API on 127.0.0.1 (a free port). */
export async function startApiServer(): Promise<ApiServer> {
  const routes = await loadRoutes(path.join(process.cwd(), 'app'));
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    let match: { route: Route; values: string[] } | undefined;
    for (const route of routes) {
      const found = route.method === req.method ? route.pattern.exec(url.pathname) : null;
      if (found) match = { route, values: found.slice(1).map(decodeURIComponent) };
    }
    if (!match) return void res.writeHead(404).end();
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    const body = chunks.length ? Buffer.concat(chunks) : undefined;
    const request = new Request(url, { method: req.method, headers, body });
    const params = Object.fromEntries(match.route.names.map((name, i) => [name, match.values[i]!]));
    const response = await match.route.handler(request, { params: Promise.resolve(params) });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
