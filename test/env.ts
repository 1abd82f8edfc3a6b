// Settings a test stubs (vi.stubEnv) are put back after each test, and the validated settings
// read again, so the next test starts from test/setup-env.ts.
import { afterEach, vi } from 'vitest';
import { resetEnvForTests } from '@/lib/env';

export function restoreEnvAfterEach(): void {
  afterEach(() => {
    vi.unstubAllEnvs();
    resetEnvForTests();
  });
}
