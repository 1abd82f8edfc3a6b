// Structured logs: one JSON line per event on stdout/stderr. Callers pass only what is safe to
// keep; paths go through redactPath because a checkout token in a URL is a secret.

type Fields = Record<string, unknown>;

function write(level: 'info' | 'warn' | 'error', msg: string, fields: Fields) {
  const line = JSON.stringify({ level, time: new Date().toISOString(), msg, ...fields });
  if (level === 'error') console.error(line);
  else console.log(line);
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

const TOKEN_PATHS = /^(\/(?:pay|checkout\/session)\/)[^/?#]+/;

/** The path with any checkout token replaced, and no query string. */
export function redactPath(pathname: string): string {
  return pathname.replace(TOKEN_PATHS, '$1[token]');
}
