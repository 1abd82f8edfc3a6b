import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '@/db/client';
import { getMerchant } from '@/db/queries/merchants';
import { auditLog } from '@/db/schema';
import { rollWebhookSecret, saveWebhookSecret, WEBHOOK_SECRET_ROLL_MS } from '@/lib/portal/webhook-settings';
import { useTestDatabase } from '@/test/database';
import { createTestMerchant } from '@/test/merchants';
import { verify } from '../../packages/node/src/webhooks';
import { webhookHeaders } from './signature';

// Rolling the webhook secret without a gap (docs/webhooks.md#rolling-the-secret): both signatures
// for 24 hours, SPEC's header keeping the previous secret's until the roll ends.

let db: Db;
beforeAll(async () => {
  db = (await useTestDatabase()).db;
});

const event = { id: 'evt_roll', body: '{"event":"subscription.activated"}' };
const actor = { type: 'user' as const, id: 'usr_1', label: 'ana@example.com', ip: '203.0.113.1' };

describe('rolling the webhook secret', () => {
  it('signs with both secrets for 24 hours, then with the new one alone', async () => {
    const { merchantId } = await createTestMerchant(db);
    const before = (await getMerchant(db, merchantId))!.webhookSecret;
    const now = new Date();
    const { secret, until } = await rollWebhookSecret(db, merchantId, actor, now);
    expect(secret).toMatch(/^whsec_/);
    expect(until.getTime() - now.getTime()).toBe(WEBHOOK_SECRET_ROLL_MS);
    const merchant = (await getMerchant(db, merchantId))!;
    expect(merchant).toMatchObject({ webhookSecret: secret, webhookSecretPrevious: before });

    const during = webhookHeaders(event, merchant, new Date(now.getTime() + 3600_000));
    const both = [during['X-Webhook-Signature'], during['X-Webhook-Signature-Next']];
    expect(verify(event.body, during['X-Webhook-Signature'], before)).toBe(true);
    expect(verify(event.body, during['X-Webhook-Signature'], secret)).toBe(false);
    expect(verify(event.body, both, before)).toBe(true);
    expect(verify(event.body, both, secret)).toBe(true);
    expect(verify(event.body, both, 'whsec_someone_elses_secret_0000000000')).toBe(false);

    const after = webhookHeaders(event, merchant, new Date(until.getTime() + 1));
    expect(after['X-Webhook-Signature-Next']).toBeUndefined();
    expect(verify(event.body, after['X-Webhook-Signature'], secret)).toBe(true);
    expect(verify(event.body, after['X-Webhook-Signature'], before)).toBe(false);

    const [entry] = await db.select().from(auditLog).where(eq(auditLog.merchantId, merchantId));
    expect(entry?.action).toBe('webhook.secret_rolled');
    expect(JSON.stringify(entry?.changes)).not.toContain(secret);
    expect(JSON.stringify(entry?.changes)).not.toContain(before);
  });

  it('a second roll during the first keeps the secret receivers had before both', async () => {
    const { merchantId } = await createTestMerchant(db);
    const original = (await getMerchant(db, merchantId))!.webhookSecret;
    await rollWebhookSecret(db, merchantId);
    const { secret } = await rollWebhookSecret(db, merchantId);
    expect(await getMerchant(db, merchantId)).toMatchObject({ webhookSecret: secret, webhookSecretPrevious: original });
  });

  it('setting a secret outright ends a roll: one signature again', async () => {
    const { merchantId } = await createTestMerchant(db);
    await rollWebhookSecret(db, merchantId);
    expect(await saveWebhookSecret(db, merchantId, 'x'.repeat(40))).toEqual({ ok: true });
    const merchant = (await getMerchant(db, merchantId))!;
    expect(merchant).toMatchObject({ webhookSecretPrevious: null, webhookSecretRolledUntil: null });
    expect(webhookHeaders(event, merchant)['X-Webhook-Signature-Next']).toBeUndefined();
  });

  it('a merchant that never rolled gets SPEC’s one header', () => {
    const headers = webhookHeaders(event, 'whsec_plain_secret_000000000000000000');
    expect(Object.keys(headers)).toEqual(['Content-Type', 'User-Agent', 'X-Webhook-Id', 'X-Webhook-Signature']);
  });
});
