// The step runner the sandbox checks share (npm run wompi:check, npm run einvoice:check): each
// step prints one line and every difference from what ServicePay expects; a thrown error, or a step
// that cannot run because an earlier one failed, is a difference too.
import type { z } from 'zod';

export interface StepResult {
  step: string;
  ok: boolean;
  detail: string;
  differences: string[];
}

export interface StepOutcome<T> {
  value: T;
  detail: string;
  differences: string[];
}

export function stepRunner(print: (line: string) => void, describeError: (error: Error) => string = (error) => error.message) {
  const steps: StepResult[] = [];
  const fail = (step: string, detail: string, line = `✗ ${step}: ${detail}`) => {
    steps.push({ step, ok: false, detail, differences: [detail] });
    print(line);
  };
  /** Runs a step; its value only when it answered as expected. */
  async function step<T>(name: string, run: () => Promise<StepOutcome<T>>): Promise<T | undefined> {
    try {
      const { value, detail, differences } = await run();
      steps.push({ step: name, ok: differences.length === 0, detail, differences });
      print(`${differences.length === 0 ? '✓' : '✗'} ${name}: ${detail}`);
      for (const d of differences) print(`    difference: ${d}`);
      return differences.length === 0 ? value : undefined;
    } catch (error) {
      fail(name, error instanceof Error ? describeError(error) : String(error));
      return undefined;
    }
  }
  const skipped = (name: string, because: string): undefined => {
    fail(name, `not run: ${because}`, `✗ ${name}: not run (${because})`);
    return undefined;
  };
  return { steps, step, skipped, fail };
}

/** What in `value` differs from `schema`, one line a field. */
export function differencesOf(schema: z.ZodType, value: unknown): string[] {
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.') || 'reply'}: ${issue.message}`);
}
