import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { requestIdOf } from '@/lib/api/handler';
import { log, redactPath } from '@/lib/log';

// Requests that Next.js cannot represent, met before it sees them (docs/settlement.md, no 5xx).
// Next turns every request into a WHATWG Request, which refuses the methods TRACE, TRACK and
// CONNECT (a TypeError, answered with a plain 500), and decodes each dynamic path segment with
// decodeURIComponent, which throws on malformed percent-encoding (`%ZZ`, a trailing `%`, the
// overlong `%C0%AF`): its fallback 400 page does not exist in an App Router app, so that too was
// a plain 500 with no request id and no log line. Files under public/ are served by Next's static
// server, which answers any method but GET and HEAD, and a malformed or unsatisfiable Range, with
// a plain 500 as well. Installed on Node's HTTP server by instrumentation.ts, in the server
// process only.

/** Methods the WHATWG Request constructor refuses. */
const UNREPRESENTABLE_METHODS = new Set(['TRACE', 'TRACK', 'CONNECT']);

/** What replaces a path segment that is not valid percent-encoded UTF-8: no route takes it as an id. */
export const UNDECODABLE_SEGMENT = '_';

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/**
 * The request target with each undecodable path segment replaced, or null when every segment
 * decodes. The route then answers as for any unknown id: our JSON 404 with a request id on the
 * API, the page's own not-found on /pay and the portal.
 */
export function repairTarget(target: string): string | null {
  const query = target.indexOf('?');
  const path = query === -1 ? target : target.slice(0, query);
  const segments = path.split('/');
  if (segments.every(decodes)) return null;
  return segments.map((s) => (decodes(s) ? s : UNDECODABLE_SEGMENT)).join('/') + (query === -1 ? '' : target.slice(query));
}

/** The URL paths of the files under public/, read once at start-up. */
function publicPaths(root = path.join(process.cwd(), 'public')): Set<string> {
  const found = new Set<string>();
  const walk = (dir: string, prefix: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name), `${prefix}/${entry.name}`);
      else found.add(`${prefix}/${entry.name}`);
    }
  };
  if (fs.existsSync(root)) walk(root, '');
  return found;
}

let staticFiles = new Set<string>();

function refuseMethod(req: http.IncomingMessage, res: http.ServerResponse, allow = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS'): void {
  const requestId = requestIdOf({ headers: new Headers({ 'x-request-id': String(req.headers['x-request-id'] ?? '') }) });
  const body = JSON.stringify({ error: { code: 'method_not_allowed', message: `${req.method} is not supported`, requestId } });
  // The body of a refused request is not read: the connection cannot be reused.
  res.writeHead(405, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'X-Request-Id': requestId,
    Allow: allow,
    Connection: 'close',
  });
  res.end(body);
  log.info('request', { method: req.method, path: redactPath((req.url ?? '/').split('?')[0]!), status: 405, requestId });
}

/** Handles `req` here when Next.js could not (`files`: public/ paths, for tests); false to let Next.js have it (its URL repaired if need be). */
export function guardRequest(req: http.IncomingMessage, res: http.ServerResponse, files: Set<string> = staticFiles): boolean {
  if (req.method && UNREPRESENTABLE_METHODS.has(req.method.toUpperCase())) {
    refuseMethod(req, res);
    return true;
  }
  const repaired = req.url ? repairTarget(req.url) : null;
  if (repaired !== null) req.url = repaired;
  if (files.has((req.url ?? '/').split('?')[0]!)) {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      refuseMethod(req, res, 'GET, HEAD');
      return true;
    }
    // These files are small: the whole file, rather than a 500 for a Range Next cannot serve.
    delete req.headers.range;
  }
  return false;
}

const holder = globalThis as typeof globalThis & { __servicepayRequestGuard?: boolean };

/**
 * Puts guardRequest in front of every HTTP server of this process (next start's among them; its
 * server is created before instrumentation runs, so the prototype is where to reach it).
 */
export function installRequestGuard(): void {
  if (holder.__servicepayRequestGuard) return;
  holder.__servicepayRequestGuard = true;
  staticFiles = publicPaths();
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function guardedEmit(this: http.Server, event: string | symbol, ...args: unknown[]) {
    if (event === 'request' && guardRequest(args[0] as http.IncomingMessage, args[1] as http.ServerResponse)) return true;
    return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
  } as typeof emit;
}
