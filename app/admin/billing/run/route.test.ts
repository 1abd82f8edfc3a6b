import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '@/db/client';
import { transactions } from '@/db/schema';
import { payWithCard } from '@/lib/checkout/payments';
import { resetEnvForTests } from '@/lib/env';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { adminHeaders, call } from '@/test/http';
import { POST } from './route';
import { restoreEnvAfterEach } from '@/test/env';

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});
restoreEnvAfterEach();

async function activePlan() {
  const link = await createTestLink(database.db);
  await payWithCard(database.db, createSandboxProcessor({ pendingMs: 0 }), { token: link.token, card: parseCard(cardForm(CARDS.approved))! });
  return link;
}
const run = (now: unknown, headers: Record<string, string> = adminHeaders()) => call(POST, { method: 'POST', headers, body: { now } });

describe('POST /admin/billing/run (test clock)', () => {
  it('runs the renewal sweep as if it were `now` and says what it did', async () => {
    const link = await activePlan();
    const due = (await link.plan()).nextChargeDate!.getTime();
    const before = await run(due - 1000);
    expect(before.status).toBe(200);
    expect(before.json.transactionIds).toEqual([]);
    const res = await run(due + 1000);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ now: due + 1000, cancelledPlanIds: [], idempotencyKeysDeleted: expect.any(Number) });
    const [renewal] = await database.db
      .select()
      .from(transactions)
      .where(and(eq(transactions.planId, link.subscriptionPlanId), eq(transactions.kind, 'RENEWAL')));
    expect(renewal).toMatchObject({ status: 'APPROVED', chargeDate: new Date(due + 1000) });
    expect(res.json.transactionIds).toContain(renewal!.id);
    expect(res.json.approved).toBeGreaterThanOrEqual(1);
    expect((await run(due + 1000)).json.transactionIds).not.toContain(renewal!.id);
  });

  it.each([[undefined], ['2027-01-01'], [1.5], [-1]])('refuses now = %s with 400', async (now) => {
    const res = await run(now);
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('invalid_request');
  });

  it('needs the operator token', async () => {
    expect((await run(Date.now(), {})).status).toBe(401);
    expect((await run(Date.now(), { authorization: 'Bearer wrong-token-0123456789' })).status).toBe(401);
  });

  it('is refused (404) in production, unless the deployment is a sandbox', async () => {
    vi.stubEnv('NODE_ENV', 'production');
    // Production requires the portal's session secret; without it every setting read fails.
    vi.stubEnv('BETTER_AUTH_SECRET', 'test-better-auth-secret-0123456789abcdef');
    resetEnvForTests();
    const refused = await run(Date.now());
    expect(refused.status).toBe(404);
    expect(refused.json.error.message).toContain('SANDBOX_DEPLOYMENT');
    vi.stubEnv('SANDBOX_DEPLOYMENT', '1');
    resetEnvForTests();
    expect((await run(Date.now())).status).toBe(200);
  });
});
