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

/** The check constraint a check violation (SQLSTATE 23514) broke, or undefined for any other error. */
export function checkViolation(error: unknown): string | undefined {
  for (let e = error as Record<string, unknown> | undefined; e; e = e.cause as Record<string, unknown> | undefined) {
    if (e.code === '23514') return String(e.constraint_name ?? e.constraint ?? '');
  }
  return undefined;
}
