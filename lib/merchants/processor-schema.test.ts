import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import { resetEnvForTests } from '@/lib/env';
import { demoAvailable } from '@/lib/portal/demo-merchant';
import { processorColumns } from './processor-schema';
import { restoreEnvAfterEach } from '@/test/env';

// Production takes no payment through the built-in sandbox (docs/processors.md#deployments): a
// merchant cannot be put on it there, and /demo (which pays through it) does not exist.

restoreEnvAfterEach();

function deployment(kind: 'production' | 'sandbox' | 'development') {
  vi.stubEnv('NODE_ENV', kind === 'development' ? 'development' : 'production');
  vi.stubEnv('SANDBOX_DEPLOYMENT', kind === 'sandbox' ? '1' : '');
  vi.stubEnv('BETTER_AUTH_SECRET', 'processor-schema-test-secret-0123456789');
  vi.stubEnv('SECRETS_ENCRYPTION_KEY', 'cd'.repeat(32));
  resetEnvForTests();
}

describe('the built-in sandbox processor', () => {
  it('is refused in production with a 400 naming processor.type', () => {
    deployment('production');
    let refused: unknown;
    try {
      processorColumns('mch_test', { type: 'sandbox' });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: 'invalid_request', options: { details: [{ path: 'processor.type', message: expect.stringContaining('not available in production') }] } });
    expect(demoAvailable()).toBe(false);
  });

  it.each(['sandbox', 'development'] as const)('is taken in a %s deployment, and /demo runs there', (kind) => {
    deployment(kind);
    expect(processorColumns('mch_test', { type: 'sandbox' })).toEqual({ processorType: 'sandbox', wompiPublicKey: null, wompiSecrets: null });
    expect(demoAvailable()).toBe(true);
  });
});
