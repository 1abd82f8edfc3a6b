import { ApiError } from '@/lib/api/errors';

// How a portal settings form saves: the input parsed by its schema, each refused field as
// `field: message` (the first problem of each), then saved through the domain, which may refuse
// it too (docs/portal.md).

export type SaveResult = { ok: true } | { ok: false; problems: string[] };

type Parsed<T> = { success: true; data: T } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };

/** `whole` names a problem of the whole input; `refused` words what the domain's invalid_request says. */
export async function saveSettings<T>(parsed: Parsed<T>, whole: string, save: (data: T) => Promise<unknown>, refused: (error: ApiError) => string[]): Promise<SaveResult> {
  if (!parsed.success) return { ok: false, problems: fieldProblems(parsed.error.issues, whole) };
  try {
    await save(parsed.data);
    return { ok: true };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'invalid_request') return { ok: false, problems: refused(error) };
    throw error;
  }
}

function fieldProblems(issues: readonly { path: readonly PropertyKey[]; message: string }[], whole: string): string[] {
  const byField = new Map<string, string>();
  for (const issue of issues) {
    const field = issue.path.join('.') || whole;
    if (!byField.has(field)) byField.set(field, `${field}: ${issue.message}`);
  }
  return [...byField.values()];
}
