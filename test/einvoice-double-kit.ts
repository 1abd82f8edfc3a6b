import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DIAN_TEST_RESOLUTION } from '../lib/einvoicing/dian-test-range';

// What the two e-invoicing provider doubles share (test/factus-double.ts, test/alegra-double.ts):
// a loopback server, the recorded requests, scripted faults (an HTTP status, a hang, a DIAN
// rejection of the next document), a latency on every answer, DIAN's public test range and the
// clock the documents are dated by. `/__control/*` scripts a double running as a process.

export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | null;
  /** JSON or form body, as parsed. */
  body: unknown;
  status: number;
}

/** A scripted fault for the next matching calls (`times`, default 1). */
export type Fault =
  | { kind: 'status'; status: 401 | 409 | 422 | 429 | 500 | 502 | 503; times?: number; path?: string; retryAfterSeconds?: number }
  | { kind: 'hang'; times?: number; path?: string }
  /** The next document DIAN sees is rejected with this rule (89, 92, FAD06, …) or left pending. */
  | { kind: 'dian'; rule: string; message?: string; times?: number }
  | { kind: 'dian-pending'; times?: number };

export const TEST_RANGE = DIAN_TEST_RESOLUTION;

/** DIAN's rule texts the doubles answer with (as providers relay them). */
export const DIAN_RULES: Record<string, string> = {
  '89': 'NIT no autorizado a enviar documentos para el emisor',
  '90': 'Documento procesado anteriormente',
  '92': 'Emisor no se encuentra Habilitado para facturar electrónicamente',
  FAD06: 'Valor del CUFE no está calculado correctamente',
  CBG01: 'La nota crédito no referencia una factura validada',
};

export type Handler = (req: { method: string; path: string; query: URLSearchParams; headers: http.IncomingHttpHeaders; body: unknown; raw: string }) =>
  | { status: number; body: unknown; headers?: Record<string, string> }
  | Promise<{ status: number; body: unknown; headers?: Record<string, string> }>;

export interface KitOptions {
  port?: number;
  /** Every answer waits this long (a benchmark's provider at 200 ms). */
  latencyMs?: number;
}

/** A double's accounts and documents, as its `/__control/accounts` (POST) and `/__control/documents` (GET) give them. */
export interface KitLedger {
  addAccount(account: unknown): void;
  documents(): unknown[];
}

export async function startKit(name: string, handler: Handler, options: KitOptions = {}, ledger?: KitLedger) {
  const requests: RecordedRequest[] = [];
  let faults: Fault[] = [];
  let latencyMs = options.latencyMs ?? 0;
  let clockOffsetMs = 0;
  const hanging = new Set<http.ServerResponse>();

  function takeFault(path: string, kinds: Fault['kind'][]): Fault | null {
    const index = faults.findIndex((f) => kinds.includes(f.kind) && (!('path' in f) || !f.path || path.startsWith(f.path)));
    if (index < 0) return null;
    const fault = faults[index]!;
    const left = (fault.times ?? 1) - 1;
    if (left <= 0) faults.splice(index, 1);
    else faults[index] = { ...fault, times: left };
    return fault;
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://double');
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: unknown = null;
        if (raw) {
          if (String(req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded')) body = Object.fromEntries(new URLSearchParams(raw));
          else {
            try {
              body = JSON.parse(raw);
            } catch {
              body = raw;
            }
          }
        }
        const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
          if (!url.pathname.startsWith('/__control')) {
            requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, authorization: req.headers.authorization ?? null, body, status });
          }
          res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
          res.end(payload === undefined ? '' : JSON.stringify(payload));
        };
        if (url.pathname === '/__control/faults' && req.method === 'POST') {
          faults.push(...((body as { faults: Fault[] }).faults ?? []));
          return send(204, undefined);
        }
        if (url.pathname === '/__control/latency' && req.method === 'POST') {
          latencyMs = Number((body as { ms: number }).ms) || 0;
          return send(204, undefined);
        }
        if (url.pathname === '/__control/requests') return send(200, requests);
        const control = url.pathname.startsWith('/__control/');
        if (latencyMs > 0 && !control) await new Promise((resolve) => setTimeout(resolve, latencyMs));
        const fault = control ? null : takeFault(url.pathname, ['status', 'hang']);
        if (fault?.kind === 'hang') {
          hanging.add(res);
          requests.push({ method: req.method ?? 'GET', path: url.pathname + url.search, authorization: req.headers.authorization ?? null, body, status: 0 });
          return;
        }
        if (fault?.kind === 'status') {
          const headers: Record<string, string> = fault.retryAfterSeconds !== undefined ? { 'Retry-After': String(fault.retryAfterSeconds) } : {};
          return send(fault.status, { message: `${name} double: scripted HTTP ${fault.status}` }, headers);
        }
        if (ledger && req.method === 'POST' && url.pathname === '/__control/accounts') {
          ledger.addAccount(body);
          return send(204, undefined);
        }
        if (ledger && req.method === 'GET' && url.pathname === '/__control/documents') return send(200, ledger.documents());
        try {
          const answer = await handler({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body, raw });
          send(answer.status, answer.body, answer.headers);
        } catch (error) {
          send(500, { message: `${name} double failed: ${error instanceof Error ? error.message : String(error)}` });
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    /** Scripts faults for the next calls, in order of arrival. */
    fail: (...more: Fault[]) => void faults.push(...more),
    clearFaults: () => void (faults = []),
    /** The next DIAN-side fault for a document (a rejection or a pending answer), if one is scripted. */
    takeDianFault: (): Extract<Fault, { kind: 'dian' | 'dian-pending' }> | null => takeFault('', ['dian', 'dian-pending']) as Extract<Fault, { kind: 'dian' | 'dian-pending' }> | null,
    setLatency: (ms: number) => void (latencyMs = ms),
    advanceClock: (ms: number) => void (clockOffsetMs += ms),
    now: () => new Date(Date.now() + clockOffsetMs),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type Kit = Awaited<ReturnType<typeof startKit>>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export { isObject };

/** Collects field errors while a body is checked; `ok` when none. */
export class FieldErrors {
  readonly errors: Record<string, string[]> = {};
  add(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }
  get ok(): boolean {
    return Object.keys(this.errors).length === 0;
  }
}

/** A document's `items`, each as an object (another value is checked as an empty one); `none` is the error for no items. */
export function itemsOf(body: Record<string, unknown>, errors: FieldErrors, none: string): Record<string, unknown>[] {
  const items = Array.isArray(body.items) ? body.items : [];
  if (items.length === 0) errors.add('items', none);
  return items.map((raw) => (isObject(raw) ? raw : {}));
}

/** "49900.00" → 4990000 cents; null when not a decimal with at most two places. */
export function centsOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && Math.abs(value * 100 - Math.round(value * 100)) < 1e-6 ? Math.round(value * 100) : null;
  if (typeof value !== 'string' || !/^-?\d+(\.\d{1,2})?$/.test(value)) return null;
  const negative = value.startsWith('-');
  const [whole, fraction = ''] = value.replace('-', '').split('.');
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return negative ? -cents : cents;
}

export const isDate = (v: unknown) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`));

/** Runs a double file as a process: `npx tsx test/x-double.ts --port N [--latency-ms 200]`. */
export function processOptions(argv: string[]): KitOptions {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? Number(argv[i + 1]) : undefined;
  };
  return { port: value('--port') ?? 0, latencyMs: value('--latency-ms') ?? 0 };
}
