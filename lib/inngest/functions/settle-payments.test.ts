import { InngestTestEngine } from '@inngest/test';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { transactions } from '@/db/schema';
import { payWithCard } from '@/lib/checkout/payments';
import { parseCard } from '@/lib/processors/card';
import type { PaymentProcessor } from '@/lib/processors/processor';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { holdWebhookHandOffs, restoreWebhookQueue } from '@/test/webhook-queue';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { truncateAll, useTestDatabase } from '@/test/database';
import { settlePaymentsFunction } from './settle-payments';

// The settler as an Inngest cron function, run by @inngest/test's engine (a fresh one per test)
// against the real database and the deployment's sandbox (its ledger in the database).

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
  holdWebhookHandOffs();
});
afterAll(() => restoreWebhookQueue());
beforeEach(() => truncateAll(database.db));

const card = (number: string) => parseCard(cardForm(number))!;
const txnOf = async (id: string) => (await database.db.select().from(transactions).where(eq(transactions.id, id)))[0]!;
/** As if the transaction had been made `ms` ago. */
const age = (id: string, ms: number) =>
  database.db
    .update(transactions)
    .set({ createdAt: sql`now() - ${ms} * interval '1 millisecond'`, updatedAt: sql`now() - ${ms} * interval '1 millisecond'` })
    .where(eq(transactions.id, id));
const run = () => new InngestTestEngine({ function: settlePaymentsFunction }).execute();

describe('settle-payments (cron)', () => {
  it('settles a PENDING charge a minute old, in one named step', async () => {
    // Charged 10 s ago on the sandbox's clock: decided by now (SANDBOX_PENDING_MS is 3 s).
    const sandbox = createSandboxProcessor({ pendingMs: 3000, now: () => Date.now() - 10_000 });
    const link = await createTestLink(database.db);
    const paid = await payWithCard(database.db, sandbox, { token: link.token, card: card(CARDS.pendingDeclined) });
    expect(paid.status).toBe('PENDING');
    await age(paid.subscriptionTransactionId, 70_000);

    const { result, ctx } = await run();
    expect(ctx.step.run).toHaveBeenCalledWith('settle-pending-charges', expect.any(Function));
    expect(result).toMatchObject({ checked: 1, settled: 1 });
    expect(await txnOf(paid.subscriptionTransactionId)).toMatchObject({ status: 'DECLINED', failureCode: 'insufficient_funds' });
  });

  it('marks ERROR a charge the processor never received, two minutes on, and leaves a younger one alone', async () => {
    const unreachable: PaymentProcessor = {
      ...createSandboxProcessor({ pendingMs: 0 }),
      charge: async () => Promise.reject(new Error('connection reset')),
      pay: async () => Promise.reject(new Error('connection reset')),
      findByReference: async () => Promise.reject(new Error('connection reset')),
    };
    const old = await createTestLink(database.db);
    const young = await createTestLink(database.db);
    const lost = await payWithCard(database.db, unreachable, { token: old.token, card: card(CARDS.approved) });
    const recent = await payWithCard(database.db, unreachable, { token: young.token, card: card(CARDS.approved) });
    await age(lost.subscriptionTransactionId, 121_000);
    await age(recent.subscriptionTransactionId, 90_000);

    const { result } = await run();
    expect(result).toMatchObject({ checked: 1, orphaned: 1 });
    expect(await txnOf(lost.subscriptionTransactionId)).toMatchObject({ status: 'ERROR', gatewayTransactionId: null });
    expect((await txnOf(recent.subscriptionTransactionId)).status).toBe('PENDING');
  });
});
