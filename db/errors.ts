/** postgres.js's own codes for a connection lost or not made, and the socket's. */
const CONNECTION_CODES = new Set([
  'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT',
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN',
]);

/**
 * Whether `error` says the database is out of reach for now, not that the request is wrong: a
 * connection lost or refused, SQLSTATE class 08 (connection exception), 57P01-57P03 (the server
 * shutting down or starting) or 53300 (too many connections). Such a request may be retried
 * (docs/settlement.md#when-the-database-drops-its-connections).
 */
export function databaseUnavailable(error: unknown): boolean {
  for (let e = error as Record<string, unknown> | undefined, depth = 0; e && depth < 8; e = e.cause as Record<string, unknown> | undefined, depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (CONNECTION_CODES.has(code) || code.startsWith('08') || /^57P0[123]$/.test(code) || code === '53300') return true;
  }
  return false;
}

/**
 * The constraint a unique violation (SQLSTATE 23505) broke, or undefined for any other error.
 * postgres.js and PGlite name the field differently, and drizzle wraps both in its own error.
 */
export function uniqueViolation(error: unknown): string | undefined {
  for (let e = error as Record<string, unknown> | undefined; e; e = e.cause as Record<string, unknown> | undefined) {
    if (e.code === '23505') return String(e.constraint_name ?? e.constraint ?? '');
  }
  return undefined;
}
