import { eq, sql } from 'drizzle-orm';
import { InngestTestEngine } from '@inngest/test';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { listAuditEntries } from '@/db/queries/audit';
import { auditLog } from '@/db/schema';
import { deleteOldAuditEntriesFunction } from '@/lib/inngest/functions/retention';
import { updateMerchant } from '@/lib/merchants/merchants';
import { createKey, revokeKey } from '@/lib/portal/api-keys';
import { AUDIT_RETENTION_DAYS, deleteOldAuditEntries } from '@/lib/retention';
import { truncateAll, useTestDatabase } from '@/test/database';
import { createTestMerchant } from '@/test/merchants';
import { type AuditActor, changesBetween, maskSecrets, operatorActor, recordAudit } from './record';

// The audit log (docs/portal.md#audit-log): what is recorded, masked, and that the database keeps
// it append-only but for the retention delete.

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});
beforeEach(() => truncateAll(database.db));

const DAY = 86_400_000;
const actor: AuditActor = { type: 'user', id: 'usr_1', label: 'ana@example.com', ip: '203.0.113.9' };

/** The database's refusal, as drizzle wraps it (the driver's error is its cause). */
async function refusal(query: PromiseLike<unknown>): Promise<string> {
  try {
    await query;
  } catch (error) {
    return String((error as { cause?: { message?: string } }).cause?.message ?? error);
  }
  return 'not refused';
}

async function entryAged(merchantId: string, daysAgo: number) {
  const [row] = await database.db
    .insert(auditLog)
    .values({ merchantId, actorType: 'user', actorId: 'usr_1', actorLabel: 'ana@example.com', action: 'merchant.updated', createdAt: new Date(Date.now() - daysAgo * DAY) })
    .returning();
  return row!.id;
}

describe('masking', () => {
  it('masks every value under a secret’s name, at any depth, and keeps the rest', () => {
    expect(
      maskSecrets({
        webhookUrl: { from: null, to: 'https://shop.example/hooks' },
        webhookSecret: { from: 'whsec_aaaaaaaaaaaaaaaaaaaaaaaa1234', to: 'short' },
        processor: { privateKey: 'prv_test_abcdefghijklmnopWXYZ', eventsSecret: 'test_events_0123456789abcd', publicKey: 'pub_test_1' },
        at: new Date('2026-01-02T03:04:05Z'),
      }),
    ).toEqual({
      webhookUrl: { from: null, to: 'https://shop.example/hooks' },
      webhookSecret: { from: '••••1234', to: '••••' },
      processor: { privateKey: '••••WXYZ', eventsSecret: '••••abcd', publicKey: 'pub_test_1' },
      at: '2026-01-02T03:04:05.000Z',
    });
  });

  it('names only the fields that changed', () => {
    expect(changesBetween({ a: 1, b: 'x', c: null }, { a: 1, b: 'y', c: undefined })).toEqual({ b: { from: 'x', to: 'y' } });
  });
});

describe('recording', () => {
  it('records a portal change of the webhook settings with its actor, address and masked secret', async () => {
    const m = await createTestMerchant(database.db);
    await updateMerchant(database.db, m.merchantId, { webhookUrl: 'https://shop.example/hooks', webhookSecret: 'n'.repeat(28) + 'WXYZ' }, actor);
    const { entries } = await listAuditEntries(database.db, m.merchantId, {}, 10);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorType: 'user', actorId: 'usr_1', actorLabel: 'ana@example.com', ip: '203.0.113.9', action: 'merchant.updated', target: null });
    expect(entries[0]!.changes).toEqual({
      webhookUrl: { from: null, to: 'https://shop.example/hooks' },
      webhookSecret: { from: `••••${m.webhookSecret.slice(-4)}`, to: '••••WXYZ' },
    });
    expect(JSON.stringify(entries[0])).not.toContain('n'.repeat(28));
  });

  it('records the operator and Wompi keys without a secret in the entry', async () => {
    const m = await createTestMerchant(database.db);
    const privateKey = `prv_test_${'k'.repeat(30)}`;
    await updateMerchant(
      database.db,
      m.merchantId,
      { processor: { type: 'wompi', publicKey: `pub_test_${'p'.repeat(20)}`, privateKey, eventsSecret: `test_events_${'e'.repeat(20)}`, integritySecret: `test_integrity_${'i'.repeat(20)}` } },
      operatorActor('198.51.100.4'),
    );
    const [entry] = (await listAuditEntries(database.db, m.merchantId, {}, 10)).entries;
    expect(entry).toMatchObject({ actorType: 'operator', ip: '198.51.100.4' });
    expect(Object.keys(entry!.changes).sort()).toEqual(['processorType', 'wompiPublicKey', 'wompiSecrets']);
    expect(JSON.stringify(entry)).not.toMatch(/k{30}|e{20}|i{20}/);
  });

  it('records nothing when nothing changed, and nothing without an actor', async () => {
    const m = await createTestMerchant(database.db);
    await updateMerchant(database.db, m.merchantId, { webhookRetries: false }, actor);
    await updateMerchant(database.db, m.merchantId, { name: 'Otra' });
    expect((await listAuditEntries(database.db, m.merchantId, {}, 10)).entries).toEqual([]);
  });

  it('commits the entry with the change, or neither: a refused change records nothing', async () => {
    const m = await createTestMerchant(database.db);
    await expect(updateMerchant(database.db, m.merchantId, { webhookRetries: true }, actor)).rejects.toMatchObject({ code: 'invalid_request' });
    expect((await listAuditEntries(database.db, m.merchantId, {}, 10)).entries).toEqual([]);
    await expect(
      database.db.transaction(async (tx) => {
        await recordAudit(tx, { merchantId: m.merchantId, actor, action: 'api_key.created', target: 'pk_test_x' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect((await listAuditEntries(database.db, m.merchantId, {}, 10)).entries).toEqual([]);
  });

  it('records a key created and revoked in the portal, the key named, never its secret', async () => {
    const m = await createTestMerchant(database.db);
    const { apiKey, apiSecret } = await createKey(database.db, m.merchantId, actor);
    await revokeKey(database.db, m.merchantId, apiKey, actor);
    const { entries } = await listAuditEntries(database.db, m.merchantId, {}, 10);
    expect(entries.map((e) => [e.action, e.target])).toEqual([
      ['api_key.revoked', apiKey],
      ['api_key.created', apiKey],
    ]);
    expect(JSON.stringify(entries)).not.toContain(apiSecret);
  });

  it('lists a merchant’s own entries only, filtered by area or text, in pages', async () => {
    const a = await createTestMerchant(database.db);
    const b = await createTestMerchant(database.db);
    for (let i = 0; i < 3; i++) await recordAudit(database.db, { merchantId: a.merchantId, actor, action: 'api_key.created', target: `pk_test_${i}` });
    await recordAudit(database.db, { merchantId: a.merchantId, actor: operatorActor(null), action: 'merchant.updated' });
    await recordAudit(database.db, { merchantId: b.merchantId, actor, action: 'api_key.created', target: 'pk_test_b' });
    const first = await listAuditEntries(database.db, a.merchantId, {}, 3);
    expect(first.entries).toHaveLength(3);
    expect(first.hasMore).toBe(true);
    const rest = await listAuditEntries(database.db, a.merchantId, { before: first.entries.at(-1)!.id }, 3);
    expect(rest.entries.map((e) => e.target)).toEqual(['pk_test_0']);
    expect((await listAuditEntries(database.db, a.merchantId, { area: 'merchant' }, 10)).entries.map((e) => e.actorType)).toEqual(['operator']);
    expect((await listAuditEntries(database.db, a.merchantId, { search: 'PK_TEST_1' }, 10)).entries.map((e) => e.target)).toEqual(['pk_test_1']);
    expect((await listAuditEntries(database.db, a.merchantId, { search: '%' }, 10)).entries).toEqual([]);
  });
});

describe('append-only', () => {
  it('refuses to update any entry, however old', async () => {
    const m = await createTestMerchant(database.db);
    const young = await entryAged(m.merchantId, 1);
    const old = await entryAged(m.merchantId, AUDIT_RETENTION_DAYS + 5);
    for (const id of [young, old]) {
      expect(await refusal(database.db.update(auditLog).set({ action: 'nothing.happened' }).where(eq(auditLog.id, id)))).toBe('audit_log is append-only: UPDATE refused');
    }
    expect((await database.db.select().from(auditLog)).map((e) => e.action)).toEqual(['merchant.updated', 'merchant.updated']);
  });

  it('refuses to delete an entry younger than the retention, even in raw SQL', async () => {
    const m = await createTestMerchant(database.db);
    const young = await entryAged(m.merchantId, AUDIT_RETENTION_DAYS - 1);
    expect(await refusal(database.db.delete(auditLog).where(eq(auditLog.id, young)))).toBe('audit_log is append-only: DELETE refused');
    expect(await refusal(database.db.execute(sql`delete from audit_log`))).toBe('audit_log is append-only: DELETE refused');
    expect(await database.db.select().from(auditLog)).toHaveLength(1);
  });

  it(`lets the retention delete take entries older than ${AUDIT_RETENTION_DAYS} days, and only those`, async () => {
    const m = await createTestMerchant(database.db);
    await entryAged(m.merchantId, AUDIT_RETENTION_DAYS + 1);
    await entryAged(m.merchantId, AUDIT_RETENTION_DAYS + 400);
    const kept = await entryAged(m.merchantId, AUDIT_RETENTION_DAYS - 1);
    expect(await deleteOldAuditEntries(database.db)).toBe(2);
    expect((await database.db.select().from(auditLog)).map((e) => e.id)).toEqual([kept]);
    expect(await deleteOldAuditEntries(database.db)).toBe(0);
  });

  it('runs as the delete-old-audit-entries Inngest function', async () => {
    const m = await createTestMerchant(database.db);
    await entryAged(m.merchantId, AUDIT_RETENTION_DAYS + 2);
    const { result } = await new InngestTestEngine({ function: deleteOldAuditEntriesFunction }).execute();
    expect(result).toEqual({ deleted: 1 });
  });
});
