import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type DestinationStream, type Logger } from 'pino';

// Structured logs with pino: one JSON line per event. Inside a request (lib/api/handler.ts) every
// line, the domain's included, comes from that request's child logger and so carries its
// requestId, the X-Request-Id a merchant quotes in a support ticket. Callers pass only what is
// safe to keep; paths go through redactPath because a checkout token in a URL is a secret.

type Fields = Record<string, unknown>;

/**
 * Under vitest the lines go through the console, which the runner holds back for passing tests;
 * everywhere else pino writes to stdout itself.
 */
const testConsole: DestinationStream = {
  write: (line: string) => (/"level":"(error|fatal)"/.test(line) ? console.error(line.trimEnd()) : console.log(line.trimEnd())),
};

const root: Logger = pino(
  {
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  },
  process.env.VITEST ? testConsole : pino.destination({ dest: 1, sync: true }),
);

// The child logger is made on a request's first log line, so a request that logs nothing but its
// summary pays for one child only, and one that never logs (none does today) for none.
const requestScope = new AsyncLocalStorage<{ requestId: string; logger?: Logger }>();

function current(): Logger {
  const scope = requestScope.getStore();
  if (!scope) return root;
  return (scope.logger ??= root.child({ requestId: scope.requestId }));
}

/** Runs `work` with `requestId` on every log line it writes, however deep in the domain. */
export function withRequestLog<T>(requestId: string, work: () => T): T {
  return requestScope.run({ requestId }, work);
}

export const log = {
  info: (msg: string, fields: Fields = {}) => current().info(fields, msg),
  warn: (msg: string, fields: Fields = {}) => current().warn(fields, msg),
  error: (msg: string, fields: Fields = {}) => current().error(fields, msg),
};

/** An error as loggable fields: name, message and stack, nothing the caller did not choose. */
export function errorFields(error: unknown): Fields {
  if (error instanceof Error) return { error: error.name, message: error.message, stack: error.stack };
  return { error: String(error) };
}

const TOKEN_PATHS = /^(\/(?:pay|checkout\/session)\/)[^/?#]+/;

/** The path with any checkout token replaced, and no query string. */
export function redactPath(pathname: string): string {
  return pathname.replace(TOKEN_PATHS, '$1[token]');
}
