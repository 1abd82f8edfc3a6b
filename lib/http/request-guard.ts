import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { parseAndValidateFlightRouterState } from 'next/dist/server/app-render/parse-and-validate-flight-router-state';
import { requestIdOf } from '@/lib/api/handler';
import { log, redactPath } from '@/lib/log';
import { isProductionDeployment } from '@/lib/processors/secret-box';

// Requests Next.js cannot represent, answered before it sees them (each would be a bare 500
// there; docs/settlement.md#no-5xx-for-a-bad-request).

/** Two years, subdomains included: what preload lists ask for. */
export const HSTS = 'max-age=63072000; includeSubDomains';

/** Methods the WHATWG Request constructor refuses. */
const UNREPRESENTABLE_METHODS = new Set(['TRACE', 'TRACK', 'CONNECT']);

/** Replaces a path segment that is not valid percent-encoded UTF-8. */
const UNDECODABLE_SEGMENT = '_';

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/** The target with undecodable segments replaced, or null. */
export function repairTarget(target: string): string | null {
  if (!target.includes('%')) return null;
  const query = target.indexOf('?');
  const path = query === -1 ? target : target.slice(0, query);
  const segments = path.split('/');
  if (segments.every(decodes)) return null;
  return segments.map((s) => (decodes(s) ? s : UNDECODABLE_SEGMENT)).join('/') + (query === -1 ? '' : target.slice(query));
}

/** The URL paths under public/, read once at start-up (never traced into the build). */
function publicPaths(root = path.join(process.cwd(), 'public')): Set<string> {
  const found = new Set<string>();
  const walk = (dir: string, prefix: string) => {
    for (const entry of fs.readdirSync(/*turbopackIgnore: true*/ dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name), `${prefix}/${entry.name}`);
      else found.add(`${prefix}/${entry.name}`);
    }
  };
  if (fs.existsSync(/*turbopackIgnore: true*/ root)) walk(root, '');
  return found;
}

let staticFiles = new Set<string>();

/** Answers with our JSON error without reading the body, so the connection closes. */
function refuse(req: http.IncomingMessage, res: http.ServerResponse, status: 400 | 404 | 405, code: string, message: string, headers: Record<string, string> = {}): void {
  const requestId = requestIdOf({ headers: new Headers({ 'x-request-id': String(req.headers['x-request-id'] ?? '') }) });
  const body = JSON.stringify({ error: { code, message, requestId } });
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    'X-Request-Id': requestId,
    ...headers,
    Connection: 'close',
  });
  res.end(body);
  log.info('request', { method: req.method, path: redactPath((req.url ?? '/').split('?')[0]!), status, requestId });
}

function refuseMethod(req: http.IncomingMessage, res: http.ServerResponse, allow = 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS'): void {
  refuse(req, res, 405, 'method_not_allowed', `${req.method} is not supported`, { Allow: allow });
}

/** Route and page paths and Server Action ids of the build: a body to anything else would 500. */
interface BuildRoutes {
  paths: RegExp[];
  actions: Set<string>;
}

export function routePattern(entry: string): RegExp {
  const segments = entry
    .replace(/\/(page|route)$/, '')
    .split('/')
    .filter((s) => s && !/^\(.*\)$/.test(s))
    .map((s) => (/^\[\[?\.\.\./.test(s) ? '.+' : /^\[.*\]$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^/${segments.join('/')}/?$`);
}

function buildRoutes(dir = path.join(process.cwd(), '.next', 'server')): BuildRoutes | null {
  try {
    const paths = JSON.parse(fs.readFileSync(/*turbopackIgnore: true*/ path.join(dir, 'app-paths-manifest.json'), 'utf8')) as Record<string, string>;
    const references = JSON.parse(fs.readFileSync(/*turbopackIgnore: true*/ path.join(dir, 'server-reference-manifest.json'), 'utf8')) as Record<string, unknown>;
    return {
      paths: Object.keys(paths)
        .filter((entry) => !entry.startsWith('/_'))
        .map(routePattern),
      actions: new Set([...Object.keys((references.node as object) ?? {}), ...Object.keys((references.edge as object) ?? {})]),
    };
  } catch {
    return null;
  }
}

let routes: BuildRoutes | null = null;

/** Whether Next.js can parse a client-router request's router state. */
export function readableRouterState(headers: http.IncomingHttpHeaders): boolean {
  const state = headers['next-router-state-tree'];
  if (headers.rsc !== '1' || state === undefined) return true;
  try {
    parseAndValidateFlightRouterState(state);
    return true;
  } catch {
    return false;
  }
}

/** The path of a target, dot segments resolved as Next.js does. */
function pathOf(target: string): string | null {
  try {
    return new URL(target, 'http://servicepay.invalid').pathname;
  } catch {
    return null;
  }
}

/** Handles `req` here when Next.js could not; false to let Next.js have it (URL repaired if need be). */
export function guardRequest(req: http.IncomingMessage, res: http.ServerResponse, files: Set<string> = staticFiles, build: BuildRoutes | null = routes): boolean {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // A sandbox or development server may be plain HTTP (docs/operations.md#deployments).
  if (isProductionDeployment()) res.setHeader('Strict-Transport-Security', HSTS);
  if (req.method && UNREPRESENTABLE_METHODS.has(req.method.toUpperCase())) {
    refuseMethod(req, res);
    return true;
  }
  if (!readableRouterState(req.headers)) {
    refuse(req, res, 400, 'invalid_request', 'The Next-Router-State-Tree header could not be read');
    return true;
  }
  const repaired = req.url ? repairTarget(req.url) : null;
  if (repaired !== null) req.url = repaired;
  if (files.has((req.url ?? '/').split('?')[0]!)) {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      refuseMethod(req, res, 'GET, HEAD');
      return true;
    }
    delete req.headers.range;
  }
  if (build && req.method !== 'GET' && req.method !== 'HEAD') {
    const action = req.headers['next-action'];
    if (req.method === 'POST' && action !== undefined && !build.actions.has(String(action))) {
      refuse(req, res, 404, 'not_found', 'No such action');
      return true;
    }
    const pathname = pathOf(req.url ?? '/');
    if (pathname === null || !build.paths.some((p) => p.test(pathname))) {
      refuse(req, res, 404, 'not_found', 'Nothing is served at this path');
      return true;
    }
  }
  return false;
}

// Only ServerResponse's flushHeaders is replaced, so Node's own stays reachable on OutgoingMessage.
function flushUnsentHeaders(res: http.ServerResponse): void {
  if (!res.headersSent && !res.destroyed) http.OutgoingMessage.prototype.flushHeaders.call(res);
}

/** Deferred header flush: headers go out with the first chunk of the same tick, in one segment. */
export function flushHeadersWithFirstChunk(this: http.ServerResponse): void {
  process.nextTick(flushUnsentHeaders, this);
}

export const LINGER = { bytes: 1024 * 1024, ms: 5000 };

function parserRefusal(code: string | undefined): string {
  const status =
    code === 'HPE_HEADER_OVERFLOW'
      ? '431 Request Header Fields Too Large'
      : code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW'
        ? '413 Payload Too Large'
        : code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? '408 Request Timeout'
          : '400 Bad Request';
  return `HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`;
}

/** Answers what Node's parser refuses as Node does, then drains before closing: closing with the
body unread made the kernel reset the connection before the 400 arrived. */
export function answerUnparsable(error: NodeJS.ErrnoException, socket: net.Socket): void {
  const inFlight = (socket as net.Socket & { _httpMessage?: http.ServerResponse | null })._httpMessage;
  if (!socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  socket.removeAllListeners('data');
  let dropped = 0;
  socket.on('data', (chunk: Buffer) => {
    dropped += chunk.byteLength;
    if (dropped > LINGER.bytes) socket.destroy();
  });
  socket.once('end', () => socket.destroy());
  socket.setTimeout(LINGER.ms, () => socket.destroy());
  socket.resume();
  socket.end(parserRefusal(error.code));
}

const holder = globalThis as typeof globalThis & { __servicepayRequestGuard?: boolean };

/** Puts guardRequest in front of every HTTP server (via the prototype: next start's server exists before instrumentation). */
export function installRequestGuard(): void {
  if (holder.__servicepayRequestGuard) return;
  holder.__servicepayRequestGuard = true;
  staticFiles = publicPaths();
  // `next dev` builds as it goes: only `next start` has current manifests.
  if (process.env.NODE_ENV === 'production') routes = buildRoutes();
  http.ServerResponse.prototype.flushHeaders = flushHeadersWithFirstChunk;
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function guardedEmit(this: http.Server, event: string | symbol, req?: unknown, res?: unknown) {
    if (event === 'request' && guardRequest(req as http.IncomingMessage, res as http.ServerResponse)) return true;
    if (event === 'clientError' && this.listenerCount('clientError') === 0) {
      answerUnparsable(req as NodeJS.ErrnoException, res as net.Socket);
      return true;
    }
    // eslint-disable-next-line prefer-rest-params
    return emit.apply(this, arguments as unknown as Parameters<typeof emit>);
  } as typeof emit;
}
