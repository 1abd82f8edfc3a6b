import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '@/db/client';
import { apiKeys, auditLog, emails, merchants, sessions } from '@/db/schema';
import { handOffsSettled } from '@/lib/unit-of-work';
import { useTestDatabase } from '@/test/database';
import { request } from '@/test/next-request';
import { signedInOwner, TEST_PASSWORD } from '@/test/portal-users';
import { testWompiKeys } from '@/test/wompi-double';
import { reauthenticateAction } from './accounts/actions';
import { createKeyAction } from './api-keys/actions';
import { getAuth } from './auth';
import { IDLE } from './form-state';
import { saveWompiKeysAction } from './processor/actions';
import { REAUTH_WINDOW_MS } from './reauth';
import { saveWebhookUrlAction } from './webhooks/actions';

// The portal's sensitive actions as a stolen session cookie would post them (issue 38): without a
// re-authentication in the last 5 minutes nothing changes; with one the change is made, audited
// with secrets masked, and every owner is e-mailed.

vi.mock('next/headers', () => import('@/test/next-request').then((m) => m.nextHeaders));
vi.mock('next/cache', () => import('@/test/next-request').then((m) => m.nextCache));

let db: Db;
beforeAll(async () => {
  db = (await useTestDatabase()).db;
});

async function ownerWithStaleSession() {
  const { email, merchantId, cookie } = await signedInOwner(db, 9, 'Tienda Sur');
  request.headers = new Headers({ cookie, 'x-forwarded-for': '203.0.113.9' });
  const session = await (await getAuth()).api.getSession({ headers: request.headers });
  await db.update(sessions).set({ authenticatedAt: new Date(Date.now() - REAUTH_WINDOW_MS - 60_000) }).where(eq(sessions.id, session!.session.id));
  return { email, merchantId };
}

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v);
  return data;
};

const notices = (merchantId: string) => db.select().from(emails).where(and(eq(emails.merchantId, merchantId), eq(emails.kind, 'security_notice')));

describe('a session older than 5 minutes', () => {
  it('cannot create a key, change the webhook URL or the Wompi keys; nothing changes and nobody is e-mailed', async () => {
    const { merchantId } = await ownerWithStaleSession();
    const refused = expect.objectContaining({ status: 'error', message: expect.stringContaining('confirme su identidad') });
    expect(await createKeyAction(IDLE, new FormData())).toEqual(refused);
    expect(await saveWebhookUrlAction(IDLE, form({ webhookUrl: 'https://attacker.example/hooks' }))).toEqual(refused);
    expect(await saveWompiKeysAction(IDLE, form({ ...testWompiKeys() }))).toEqual(refused);
    expect(await db.$count(apiKeys, eq(apiKeys.merchantId, merchantId))).toBe(0);
    const [merchant] = await db.select().from(merchants).where(eq(merchants.id, merchantId));
    expect(merchant).toMatchObject({ webhookUrl: null, processorType: 'sandbox' });
    await handOffsSettled();
    expect(await notices(merchantId)).toEqual([]);
  });

  it('is refused re-authentication with a wrong password, and then still changes nothing', async () => {
    const { merchantId } = await ownerWithStaleSession();
    expect(await reauthenticateAction(IDLE, form({ password: 'wrong password 1' }))).toMatchObject({ status: 'error', message: 'La contraseña no es correcta.' });
    expect((await createKeyAction(IDLE, new FormData())).status).toBe('error');
    expect(await db.$count(apiKeys, eq(apiKeys.merchantId, merchantId))).toBe(0);
  });
});

describe('after re-authenticating', () => {
  it('changes the Wompi keys and the webhook URL, audits them with secrets masked, and e-mails every owner', async () => {
    const { email, merchantId } = await ownerWithStaleSession();
    expect(await reauthenticateAction(IDLE, form({ password: TEST_PASSWORD }))).toMatchObject({ status: 'ok', message: expect.stringContaining('Identidad confirmada hasta') });
    const keys = testWompiKeys();
    expect(await saveWompiKeysAction(IDLE, form({ ...keys }))).toMatchObject({ status: 'ok' });
    expect(await saveWebhookUrlAction(IDLE, form({ webhookUrl: 'https://tienda.example/hooks' }))).toMatchObject({ status: 'ok' });
    expect(await createKeyAction(IDLE, new FormData())).toMatchObject({ status: 'ok' });
    expect(await db.$count(apiKeys, eq(apiKeys.merchantId, merchantId))).toBe(1);

    const entries = await db.select().from(auditLog).where(eq(auditLog.merchantId, merchantId));
    const text = JSON.stringify(entries);
    expect(text).not.toContain(keys.privateKey);
    expect(text).not.toContain(keys.eventsSecret);
    expect(text).not.toContain(keys.integritySecret);
    expect(entries.map((e) => e.action)).toEqual(expect.arrayContaining(['api_key.created']));
    expect(entries.every((e) => e.actorLabel === email && e.ip === '203.0.113.9')).toBe(true);

    await handOffsSettled();
    const sent = await notices(merchantId);
    expect(sent.map((e) => e.toAddress)).toEqual([email, email, email]);
    expect(sent.map((e) => e.text).join('\n')).toMatch(/las llaves de Wompi[\s\S]*la URL del webhook[\s\S]*las claves de la API/);
    expect(sent[0]!.text).toContain('203.0.113.9');
  });
});
