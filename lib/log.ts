import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type DestinationStream, type Logger } from 'pino';

// Structured logs with pino: one JSON line per event. Inside a request (lib/api/handler.ts) every
// line, the domain's included, carries that request's requestId, the X-Request-Id a merchant
// quotes in a support ticket. Callers pass only what is safe to keep; paths go through redactPath
// because a checkout token in a URL is a secret.

type Fields = Record<string, unknown>;

/**
 * Under vitest the lines go through the console, which the runner holds back for passing tests;
 * everywhere else pino writes to stdout itself.
 */
const testConsole: DestinationStream = {
  write: (line: string) => (/"level":"(error|fatal)"/.test(line) ? console.error(line.trimEnd()) : console.log(line.trimEnd())),
};

/**
 * Performance (docs/performance.md): chunked log lines.
 * stdout, written in chunks of 4 KiB, or at least once a second, rather than a system call per line
 * (every API request logs one). Writes stay synchronous, so at exit (process.exit, a crash, the
 * server's own SIGTERM handling) what is buffered is written before the process ends; a machine that
 * loses power can lose the last second of lines.
 */
function stdout(): DestinationStream {
  const destination = pino.destination({ dest: 1, sync: true, minLength: 4096 });
  setInterval(() => destination.flush(), 1_000).unref();
  process.once('exit', () => destination.flushSync());
  return destination;
}

let second = NaN;
let secondPrefix = '';

/**
 * pino's isoTime (`,"time":"2026-11-24T10:51:34.092Z"`) without formatting a Date per line: the
 * text up to the second is made once a second and the milliseconds appended (docs/operations.md#logs).
 */
export function isoTime(now = Date.now()): string {
  const ms = now % 1000;
  if (now - ms !== second) {
    second = now - ms;
    secondPrefix = `,"time":"${new Date(second).toISOString().slice(0, -4)}`;
  }
  return `${secondPrefix}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z"`;
}

const root: Logger = pino(
  {
    base: undefined,
    timestamp: isoTime,
    formatters: { level: (label) => ({ level: label }) },
  },
  process.env.VITEST ? testConsole : stdout(),
);

// Inside a request the id is merged into the line's own fields: the line a child logger would
// write, without making a child logger per request (every API request logs its summary line).
const requestScope = new AsyncLocalStorage<{ requestId: string }>();

type Level = 'info' | 'warn' | 'error';

function write(level: Level, msg: string, fields: Fields): void {
  const scope = requestScope.getStore();
  root[level](scope ? { requestId: scope.requestId, ...fields } : fields, msg);
}

/** Runs `work` with `requestId` on every log line it writes, however deep in the domain. */
export function withRequestLog<T>(requestId: string, work: () => T): T {
  return requestScope.run({ requestId }, work);
}

export const log = {
  info: (msg: string, fields: Fields = {}) => write('info', msg, fields),
  warn: (msg: string, fields: Fields = {}) => write('warn', msg, fields),
  error: (msg: string, fields: Fields = {}) => write('error', msg, fields),
};

/** An error as loggable fields: name, message and stack, nothing the caller did not choose. */
export function errorFields(error: unknown): Fields {
  if (error instanceof Error) return { error: error.name, message: error.message, stack: error.stack };
  return { error: String(error) };
}

const TOKEN_PATHS = /^(\/(?:pay|manage|checkout\/session)\/)[^/?#]+/;

/** The path with any checkout token replaced, and no query string. */
export function redactPath(pathname: string): string {
  return pathname.replace(TOKEN_PATHS, '$1[token]');
}
