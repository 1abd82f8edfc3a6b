import http from 'node:http';
import net from 'node:net';
import zlib from 'node:zlib';
import corpus from './fuzz-corpus.json';
import { api, createLinks, createMerchant, operator, pay } from './harness';

// The seeded fuzz run of the resilience suite: requests made from fuzz-corpus.json and a generator
// of nested, huge and odd JSON bodies by a seeded random source (the same seed, the same
// requests), sent to one server. It counts every reply of 500
// or more, and every error of one of our routes (a path and method our API serves) that is not
// a JSON error body whose requestId matches X-Request-Id.

/** mulberry32: a small seeded generator, enough to pick from a corpus reproducibly. */
function generator(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  return { next, pick, chance: (p: number) => next() < p };
}

interface Real {
  token: string;
  plan: string;
  txn: string;
  event: string;
  merchant: string;
  auth: string;
}

/** Valid values, so that a share of the requests reaches past authentication and lookups. */
async function realValues(base: string, webhookUrl: string): Promise<Real> {
  const merchant = await createMerchant(base, webhookUrl);
  const [paid, open] = await createLinks(base, merchant.auth, 2, `fuzz-${process.pid}`);
  const declined = await pay(base, paid!.token, '4111111111111111', '10.99.0.1');
  const events = await api(base, '/merchants/webhook-events', { auth: merchant.auth });
  return {
    token: open!.token,
    plan: paid!.planId,
    txn: declined.json.subscriptionTransactionId,
    event: events.json.data[0]?.id ?? 'evt_none',
    merchant: merchant.merchantId,
    auth: merchant.auth,
  };
}

type Random = ReturnType<typeof generator>;

const ODD_STRINGS = ['', '\u0000', '\ud800', '\udfff\ud800', '\u202e', '🙂'.repeat(50), '%00', '../../etc/passwd', '<script>', "' or 1=1 --", '\\', '"'];
const ODD_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', '', '\u0000', 'a.b', 'cardNumber', 'plan', 'customer'];

/** A JSON value, odd in some way: numbers past double range, odd strings and keys, duplicates. */
function oddValue(random: Random, depth: number): string {
  const pick = random.next();
  if (depth > 3 || pick < 0.35) {
    return random.pick([
      '1e400', '-0', '0.0000000000000000000001', '123456789012345678901234567890', 'true', 'null', '-1', '1.5',
      JSON.stringify(random.pick(ODD_STRINGS)), JSON.stringify('x'.repeat(Math.floor(random.next() * 5000))),
    ]);
  }
  if (pick < 0.65) return `[${Array.from({ length: Math.floor(random.next() * 5) }, () => oddValue(random, depth + 1)).join(',')}]`;
  const members = Array.from({ length: Math.floor(random.next() * 6) }, () => `${JSON.stringify(random.pick(ODD_KEYS))}:${oddValue(random, depth + 1)}`);
  // A duplicated key now and then: JSON.parse keeps the last.
  if (members.length && random.chance(0.2)) members.push(members[0]!);
  return `{${members.join(',')}}`;
}

/**
 * A generated body (the GENERATED corpus entry): nested up to thousands of levels, with thousands
 * of keys, huge (up to past 64 KiB), or odd; often inside a field of a real body, where a route
 * reads it.
 */
function generatedBody(random: Random): string {
  const shape = random.next();
  let value: string;
  if (shape < 0.3) {
    const levels = Math.floor(random.next() ** 2 * 8000) + 1;
    const [open, close] = random.chance(0.5) ? ['{"a":', '}'] : ['[', ']'];
    value = open.repeat(levels) + oddValue(random, 4) + close.repeat(levels);
  } else if (shape < 0.5) {
    const keys = Math.floor(random.next() * 4000);
    value = `{${Array.from({ length: keys }, (_, i) => `"k${i}":${i}`).join(',')}}`;
  } else if (shape < 0.65) {
    value = JSON.stringify('y'.repeat(Math.floor(random.next() * 80 * 1024)));
  } else {
    value = oddValue(random, 0);
  }
  const field = random.pick(['cardNumber', 'cardHolder', 'plan', 'customer', 'webhookUrl', 'reason', 'data', null]);
  return field ? `{${JSON.stringify(field)}:${value}}` : value;
}

function body(kind: string, real: Real, random: Random): string | Buffer {
  const link = { customer: { phone: '+573001234567', email: 'ana@example.com' }, plan: { externalReference: `f-${Math.random()}`, description: 'Plan', amount: 150000 } };
  const cardBody = { cardNumber: '4111 1111 1111 1111', cardExpiry: '12/30', cardCvc: '123', cardHolder: 'Ana' };
  switch (kind) {
    case 'LINK':
      return JSON.stringify(link);
    case 'LINK_NUL':
      return JSON.stringify({ ...link, plan: { ...link.plan, description: 'a\u0000b' } });
    case 'CARD':
      return JSON.stringify(cardBody);
    case 'CARD_NUL':
      return JSON.stringify({ ...cardBody, cardHolder: '\u0000' });
    case 'CARD_BAD':
      return JSON.stringify({ ...cardBody, cardNumber: '4242', cardExpiry: '13/99', cardCvc: 'abc' });
    case 'DEEP':
      return '['.repeat(5000) + ']'.repeat(5000);
    case 'BIG':
      return JSON.stringify({ description: 'x'.repeat(70 * 1024), token: real.token });
    case 'BINARY':
      return Buffer.from(Array.from({ length: 512 }, (_, i) => (i * 37) % 256));
    case 'GENERATED':
      return generatedBody(random);
    default:
      return kind;
  }
}

function segment(value: string): string {
  return value === 'LONG' ? 'x'.repeat(2100) : value;
}

interface Planned {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  ours: boolean;
}

function plan(random: Random, real: Real): Planned {
  const fromRoutes = random.chance(0.9);
  const route = fromRoutes ? random.pick(corpus.routes) : { path: random.pick(corpus.pages), methods: [] as string[] };
  let hostile = false;
  const path = route.path.replace(/\{(\w+)\}/g, (_m, name: keyof Real) => {
    if (random.chance(0.5)) return real[name];
    hostile = true;
    return segment(random.pick(corpus.segments));
  });
  const method = route.methods.length && random.chance(0.8) ? random.pick(route.methods) : random.pick(corpus.methods);
  const headers: Record<string, string> = {};
  const auth = random.next();
  if (auth < 0.4) headers.Authorization = real.auth;
  else if (auth < 0.5) headers.Authorization = operator;
  for (let n = Math.floor(random.next() * 4); n > 0; n--) {
    for (const [name, value] of Object.entries(random.pick(corpus.headers))) headers[name] = value === 'LONG' ? 'k'.repeat(300) : value;
  }
  headers['X-Forwarded-For'] = `10.77.${Math.floor(random.next() * 250)}.${Math.floor(random.next() * 250)}`;
  const query = random.chance(0.25) ? random.pick(corpus.queries) : '';
  const sendsBody = method !== 'GET' && method !== 'HEAD' && random.chance(0.85);
  const payload = sendsBody ? body(random.pick(corpus.bodies), real, random) : undefined;
  if (payload !== undefined && !('Content-Type' in headers) && random.chance(0.8)) headers['Content-Type'] = 'application/json';
  // Dot segments are resolved before routing: such a path may land on no route of ours.
  const dotted = /(^|\/)(\.|\.\.|%2e%2e)(\/|$)/i.test(path);
  return { method, path: path + query, headers, body: payload, ours: fromRoutes && route.methods.includes(method) && !dotted && !(hostile && method === 'HEAD') };
}

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** The body as a client that sent Accept-Encoding reads it (Next.js compresses its replies). */
function decoded(body: Buffer, encoding: string | undefined): Buffer {
  if (!body.length) return body;
  if (encoding === 'gzip') return zlib.gunzipSync(body);
  if (encoding === 'br') return zlib.brotliDecompressSync(body);
  if (encoding === 'deflate') return zlib.inflateSync(body);
  return body;
}

function send(agent: http.Agent, base: URL, request: Planned): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: request.method,
        path: request.path,
        // Node's client frames a body of DELETE or OPTIONS (as of GET and HEAD) with
        // neither Content-Length nor chunks: the server then reads the body as the next request.
        headers: request.body === undefined ? request.headers : { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body)) },
        timeout: 60_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: decoded(Buffer.concat(chunks), res.headers['content-encoding']).toString('utf8') });
          } catch (error) {
            reject(error);
          }
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(request.body);
  });
}

/** One request as the fuzz sends it, on a connection of its own: the path exactly as given (dot segments too). */
export async function sendOne(base: string, request: Omit<Planned, 'ours'>): Promise<Reply> {
  const agent = new http.Agent({ keepAlive: false });
  try {
    return await send(agent, new URL(base), { ...request, ours: false });
  } finally {
    agent.destroy();
  }
}

function isOurError(reply: Reply, method: string): boolean {
  const id = reply.headers['x-request-id'];
  if (typeof id !== 'string' || !id) return false;
  if (method === 'HEAD') return true;
  try {
    const parsed = JSON.parse(reply.body) as { error?: { code?: unknown; requestId?: unknown } };
    return typeof parsed.error?.code === 'string' && parsed.error.requestId === id;
  } catch {
    return false;
  }
}

export interface FuzzReport {
  seed: number;
  requests: number;
  byStatus: Record<string, number>;
  /** Requests the client could not complete: the server reset or dropped the connection, or did not answer in 60 s. */
  transportErrors: number;
  /** Each of them: the request, the size of the body it sent, and the client's error. */
  transportErrorDetails: string[];
  serverErrors: string[];
  errorsWithoutRequestId: string[];
}

/** `requests` seeded requests against `base`, `concurrency` at a time. */
export async function fuzz(base: string, { seed, requests, concurrency, webhookUrl = 'https://127.0.0.1:9/none' }: { seed: number; requests: number; concurrency: number; webhookUrl?: string }): Promise<FuzzReport> {
  const real = await realValues(base, webhookUrl);
  const random = generator(seed);
  const planned = Array.from({ length: requests }, () => plan(random, real));
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const url = new URL(base);
  const report: FuzzReport = { seed, requests: 0, byStatus: {}, transportErrors: 0, transportErrorDetails: [], serverErrors: [], errorsWithoutRequestId: [] };
  let next = 0;
  const worker = async () => {
    while (next < planned.length) {
      const request = planned[next++]!;
      const what = `${request.method} ${request.path.slice(0, 120)}`;
      try {
        const reply = await send(agent, url, request);
        report.requests++;
        report.byStatus[reply.status] = (report.byStatus[reply.status] ?? 0) + 1;
        if (reply.status >= 500) report.serverErrors.push(`${what} → ${reply.status} ${reply.body.slice(0, 120)}`);
        else if (reply.status >= 400 && request.ours && !isOurError(reply, request.method)) {
          report.errorsWithoutRequestId.push(`${what} → ${reply.status} ${reply.body.slice(0, 120)}`);
        }
      } catch (error) {
        const size = request.body === undefined ? 0 : Buffer.byteLength(request.body);
        report.transportErrorDetails.push(`${what} (${size} B body) → ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
        report.transportErrors++;
        report.requests++;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  return report;
}

/**
 * An early 413 on a keep-alive connection: the declared 1 MiB body is never sent, and the next
 * request written on the same socket must be answered as a request (with the connection closed,
 * the client's pool opens another), never read as the rest of that body.
 */
export async function requestAfterEarly413(base: string): Promise<{ first: string; reply: string; secondAnswered: boolean; closed: boolean }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    let data = '';
    let closed = false;
    socket.on('connect', () => {
      socket.write(
        `POST /checkout/session/abcdefghij/payments HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nX-Forwarded-For: 10.66.0.1\r\nContent-Length: 1048576\r\n\r\n`,
      );
    });
    socket.on('data', (chunk) => {
      data += chunk;
      if (data.includes('\r\n\r\n') && !socket.writableEnded) {
        // Written on the same socket at once, as a pooled client would.
        socket.write(`GET /api/health HTTP/1.1\r\nHost: ${url.host}\r\n\r\n`, () => {});
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      closed = true;
      const first = data.split('\r\n')[0] ?? '';
      // If the second request had been read as body, it would hang, not close.
      resolve({ first, reply: data, secondAnswered: (data.match(/HTTP\/1\.1 /g) ?? []).length > 1, closed });
    });
    setTimeout(() => reject(new Error('the connection neither answered nor closed in 20 s')), 20_000).unref();
  });
}
