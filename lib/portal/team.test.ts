import { and, desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '@/db/client';
import { apiKeys, auditLog, emails, users } from '@/db/schema';
import { handOffsSettled } from '@/lib/unit-of-work';
import { useTestDatabase } from '@/test/database';
import { request } from '@/test/next-request';
import { signedInOwner, signInCookie, TEST_PASSWORD } from '@/test/portal-users';
import { currentUser, type PortalUser } from './accounts';
import { IDLE } from './form-state';
import { can, roleRefusal } from './roles';
import { acceptInvitation, changeMemberRole, INVITATION_TTL_MS, inviteMember, listMembers } from './team';

// Members, roles and invitations (docs/portal.md#members): the roles' grants, an invitation accepted once
// within 7 days, and a viewer refused a key with a 403 naming the role it lacks.

vi.mock('next/headers', () => import('@/test/next-request').then((m) => m.nextHeaders));
vi.mock('next/cache', () => import('@/test/next-request').then((m) => m.nextCache));

let db: Db;
beforeAll(async () => {
  db = (await useTestDatabase()).db;
});

let sequence = 0;
const cookieFor = async (email: string) => new Headers({ cookie: await signInCookie(email) });

async function owner() {
  const { email, cookie } = await signedInOwner(db, 11, 'Tienda Equipo');
  const user = (await currentUser(new Headers({ cookie })))!;
  return { user, actor: { type: 'user' as const, id: user.userId, label: email, ip: null } };
}

async function invitationToken(to: string): Promise<string> {
  await handOffsSettled();
  const [mail] = await db.select().from(emails).where(and(eq(emails.toAddress, to), eq(emails.kind, 'member_invitation'))).orderBy(desc(emails.id)).limit(1);
  return new URL(/https?:\/\/\S+/.exec(mail!.text)![0]).searchParams.get('token')!;
}

async function member(inviter: PortalUser, role: 'admin' | 'developer' | 'viewer') {
  sequence += 1;
  const email = `team-${role}${sequence}-${Date.now()}@example.com`;
  expect(await inviteMember(db, inviter, { email, role }, { type: 'user', id: inviter.userId, label: inviter.email, ip: null })).toMatchObject({ ok: true });
  expect(await acceptInvitation(db, { token: await invitationToken(email), name: 'Vera', password: TEST_PASSWORD }, new Headers())).toEqual({ ok: true });
  const cookie = await cookieFor(email);
  return { email, cookie, user: (await currentUser(cookie))! };
}

describe('roles', () => {
  it('grant what docs/portal.md#members says', () => {
    expect(['members', 'money', 'api_keys', 'webhooks', 'events', 'business'].every((p) => can('owner', p as never))).toBe(true);
    expect(can('admin', 'members')).toBe(false);
    expect(can('admin', 'money')).toBe(false);
    expect(can('admin', 'api_keys')).toBe(true);
    expect(can('developer', 'api_keys')).toBe(true);
    expect(can('developer', 'webhooks')).toBe(true);
    expect(can('developer', 'business')).toBe(false);
    expect(can('viewer', 'api_keys')).toBe(false);
    expect(roleRefusal('viewer', 'api_keys', 'es')).toBe('Prohibido (403): su rol, Lector, no permite esto. Hace falta el rol Desarrollador o Administrador o Propietario.');
  });
});

describe('invitations', () => {
  it('an invitee joins the merchant with the invited role, verified, once', async () => {
    const { user: inviter, actor } = await owner();
    const email = `invitee-${Date.now()}@example.com`;
    const invited = await inviteMember(db, inviter, { email, role: 'developer' }, actor);
    expect(invited).toMatchObject({ ok: true });
    expect(invited.ok && invited.expiresAt.getTime() - Date.now()).toBeGreaterThan(INVITATION_TTL_MS - 60_000);
    const token = await invitationToken(email);
    expect(await acceptInvitation(db, { token: `${token}x`, name: 'Vera', password: TEST_PASSWORD }, new Headers())).toEqual({ ok: false, problem: 'invalid_token' });
    expect(await acceptInvitation(db, { token, name: 'Vera', password: 'short' }, new Headers())).toEqual({ ok: false, problem: 'too_short' });
    expect(await acceptInvitation(db, { token, name: 'Vera', password: TEST_PASSWORD }, new Headers())).toEqual({ ok: true });
    expect(await acceptInvitation(db, { token, name: 'Eve', password: TEST_PASSWORD }, new Headers())).toEqual({ ok: false, problem: 'invalid_token' });
    const [joined] = await db.select().from(users).where(eq(users.email, email));
    expect(joined).toMatchObject({ merchantId: inviter.merchantId, role: 'developer', emailVerified: true });
    expect((await listMembers(db, inviter.merchantId)).map((m) => m.role).sort()).toEqual(['developer', 'owner']);
    const actions = (await db.select().from(auditLog).where(eq(auditLog.merchantId, inviter.merchantId))).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['member.invited', 'member.joined']));
  });

  it('refuses an expired invitation, a bad role or address, and an address that already has an account', async () => {
    const { user: inviter, actor } = await owner();
    expect(await inviteMember(db, inviter, { email: 'not-an-email', role: 'viewer' }, actor)).toEqual({ ok: false, problem: 'invalid' });
    expect(await inviteMember(db, inviter, { email: 'x@example.com', role: 'superuser' }, actor)).toEqual({ ok: false, problem: 'invalid' });
    expect(await inviteMember(db, inviter, { email: inviter.email, role: 'viewer' }, actor)).toEqual({ ok: false, problem: 'already_member' });
    const email = `late-${Date.now()}@example.com`;
    await inviteMember(db, inviter, { email, role: 'viewer' }, actor);
    const token = await invitationToken(email);
    const later = new Date(Date.now() + INVITATION_TTL_MS + 1000);
    expect(await acceptInvitation(db, { token, name: 'Vera', password: TEST_PASSWORD }, new Headers(), later)).toEqual({ ok: false, problem: 'invalid_token' });
    expect(await db.$count(users, eq(users.email, email))).toBe(0);
  });

  it('keeps the last owner an owner', async () => {
    const { user: inviter, actor } = await owner();
    expect(await changeMemberRole(db, inviter, { userId: inviter.userId, role: 'viewer' }, actor)).toEqual({ ok: false, problem: 'last_owner' });
    const dev = await member(inviter, 'developer');
    expect(await changeMemberRole(db, inviter, { userId: dev.user.userId, role: 'viewer' }, actor)).toEqual({ ok: true });
    expect((await currentUser(dev.cookie))?.role).toBe('viewer');
  });
});

describe('a member’s role on the server', () => {
  it('a viewer gets a 403 naming the role creating a key, and no key is made; a developer may, and only the owner is told', async () => {
    const { user: inviter } = await owner();
    const { createKeyAction } = await import('./api-keys/actions');
    const viewer = await member(inviter, 'viewer');
    request.headers = viewer.cookie;
    expect(await createKeyAction(IDLE, new FormData())).toMatchObject({ status: 'error', message: expect.stringContaining('Prohibido (403): su rol, Lector') });
    expect(await db.$count(apiKeys, eq(apiKeys.merchantId, inviter.merchantId))).toBe(0);
    const developer = await member(inviter, 'developer');
    request.headers = developer.cookie;
    expect(await createKeyAction(IDLE, new FormData())).toMatchObject({ status: 'ok' });
    expect(await db.$count(apiKeys, eq(apiKeys.merchantId, inviter.merchantId))).toBe(1);
    await handOffsSettled();
    const told = await db.select({ to: emails.toAddress }).from(emails).where(and(eq(emails.merchantId, inviter.merchantId), eq(emails.kind, 'security_notice')));
    expect(told.map((e) => e.to)).toEqual([inviter.email]);
  });

  it('an admin cannot change the Wompi keys (money) nor invite', async () => {
    const { user: inviter } = await owner();
    const { saveWompiKeysAction } = await import('./processor/actions');
    const { inviteMemberAction } = await import('./members/actions');
    const admin = await member(inviter, 'admin');
    request.headers = admin.cookie;
    expect(await saveWompiKeysAction(IDLE, new FormData())).toMatchObject({ status: 'error', message: expect.stringContaining('Hace falta el rol Propietario') });
    const form = new FormData();
    form.set('email', `someone-${Date.now()}@example.com`);
    form.set('role', 'viewer');
    expect(await inviteMemberAction(IDLE, form)).toMatchObject({ status: 'error', message: expect.stringContaining('Administrador') });
  });
});
