import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type DestinationStream, type Logger } from 'pino';

// Structured logs with pino, one JSON line per event; inside a request every line carries its
// requestId. Callers pass only what is safe to keep; paths go through redactPath.

type Fields = Record<string, unknown>;

/** Under vitest through the console, which the runner holds back for passing tests. */
const testConsole: DestinationStream = {
  write: (line: string) => (/"level":"(error|fatal)"/.test(line) ? console.error(line.trimEnd()) : console.log(line.trimEnd())),
};

/**
 * Performance (docs/performance.md): chunked log lines, 4 KiB or once a second. Writes stay
 * synchronous, so an exit or a crash still writes what is buffered.
 */
function stdout(): DestinationStream {
  const destination = pino.destination({ dest: 1, sync: true, minLength: 4096 });
  setInterval(() => destination.flush(), 1_000).unref();
  process.once('exit', () => destination.flushSync());
  return destination;
}

let second = NaN;
let secondPrefix = '';

/** pino's isoTime without formatting a Date per line (docs/operations.md#logs). */
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
