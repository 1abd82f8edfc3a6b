import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { webhookEvents } from '@/db/schema';
import { payWithCard } from '@/lib/checkout/payments';
import { parseCard } from '@/lib/processors/card';
import type { PaymentProcessor } from '@/lib/processors/processor';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { holdWebhookHandOffs } from './webhook-queue';
import { webhookPayloadSchema } from '@/lib/webhooks/payload';
import { CARDS, cardForm, createTestLink } from './checkout';
import { truncateAll, useTestDatabase } from './database';
import { assertStoredWebhookBodiesValid } from './webhook-bodies';

// The check every test database goes through (test/database.ts) catches a body the published
// schema rejects, and accepts what the outbox writes, including a charge the processor never
// received (docs/webhooks.md#payload: `transactionId` null).

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});
beforeEach(async () => {
  await truncateAll(database.db);
  holdWebhookHandOffs();
});

async function storedBody(planId: string): Promise<string> {
  const [event] = await database.db.select().from(webhookEvents).where(eq(webhookEvents.planId, planId));
  return event!.body;
}

describe('stored webhook bodies', () => {
  it('a processor that throws before receiving the charge: an error event whose transactionId is null, and valid', async () => {
    const sandbox = createSandboxProcessor({ pendingMs: 0 });
    const throwing: PaymentProcessor = {
      ...sandbox,
      pay: async () => {
        throw new Error('connection refused');
      },
    };
    const link = await createTestLink(database.db);
    await payWithCard(database.db, throwing, { token: link.token, card: parseCard(cardForm(CARDS.approved))! }).catch(() => undefined);
    const body = JSON.parse(await storedBody(link.subscriptionPlanId));
    expect(body.data).toMatchObject({ status: 'ERROR', transactionId: null });
    expect(webhookPayloadSchema.safeParse(body).success).toBe(true);
    expect(await assertStoredWebhookBodiesValid(database.db)).toBe(1);
  });

  it('refuses a stored body with a missing field, a wrong type, extra fields or another field order', async () => {
    const link = await createTestLink(database.db);
    await payWithCard(database.db, createSandboxProcessor({ pendingMs: 0 }), { token: link.token, card: parseCard(cardForm(CARDS.approved))! });
    const good = JSON.parse(await storedBody(link.subscriptionPlanId));
    expect(await assertStoredWebhookBodiesValid(database.db)).toBe(1);
    const variants = [
      { ...good, data: { ...good.data, transactionId: undefined } },
      { ...good, data: { ...good.data, amount: '150000' } },
      { ...good, extra: true },
      { timestamp: good.timestamp, event: good.event, data: good.data },
    ];
    for (const variant of variants) {
      await database.db.update(webhookEvents).set({ body: JSON.stringify(variant) }).where(eq(webhookEvents.planId, link.subscriptionPlanId));
      await expect(assertStoredWebhookBodiesValid(database.db)).rejects.toThrow(/published schema rejects/);
    }
    await database.db.update(webhookEvents).set({ body: 'not json' }).where(eq(webhookEvents.planId, link.subscriptionPlanId));
    await expect(assertStoredWebhookBodiesValid(database.db)).rejects.toThrow(/not JSON/);
    // Leave the database as the end-of-file check expects it.
    await database.db.update(webhookEvents).set({ body: JSON.stringify(good) }).where(eq(webhookEvents.planId, link.subscriptionPlanId));
  });
});
