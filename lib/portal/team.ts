import { randomBytes } from 'node:crypto';
import { APIError } from 'better-auth/api';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { acceptInvitationRow, findOpenInvitation, insertInvitation, listOpenInvitations } from '@/db/queries/invitations';
import { getMerchantName } from '@/db/queries/merchants';
import { countOwners, findUserByEmail, listMembers, updateMemberRole } from '@/db/queries/users';
import { MEMBER_ROLES, type MemberRole } from '@/db/schema';
import { type AuditActor, recordAudit } from '@/lib/audit/record';
import { sha256Hex } from '@/lib/auth/secrets';
import { queueAccountEmail } from '@/lib/email/account';
import { env } from '@/lib/env';
import { inTransaction } from '@/lib/unit-of-work';
import { accountEmails } from './account-emails';
import type { PortalUser } from './accounts';
import { getAuth, withNewUserMerchant } from './auth';
import { emailSchema, type PasswordProblem, passwordProblem } from './passwords';
import { ROLE_NAMES } from './roles';

// A merchant's members and their invitations (docs/portal.md#members).

export const INVITATION_TTL_MS = 7 * 24 * 3600_000;
const roleSchema = z.enum(MEMBER_ROLES);

export { listMembers, listOpenInvitations };

type InviteResult = { ok: true; expiresAt: Date } | { ok: false; problem: 'invalid' | 'already_member' };

export async function inviteMember(db: Db, inviter: PortalUser, input: { email: unknown; role: unknown }, actor: AuditActor, now: Date = new Date()): Promise<InviteResult> {
  const email = emailSchema.safeParse(input.email);
  const role = roleSchema.safeParse(input.role);
  if (!email.success || !role.success) return { ok: false, problem: 'invalid' };
  if (await findUserByEmail(db, email.data)) return { ok: false, problem: 'already_member' };
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
  await inTransaction(db, async (tx, outbox) => {
    await insertInvitation(tx, { merchantId: inviter.merchantId, email: email.data, role: role.data, tokenHash: sha256Hex(token), invitedBy: inviter.userId, expiresAt, createdAt: now });
    await recordAudit(tx, { merchantId: inviter.merchantId, actor, action: 'member.invited', target: email.data, changes: { role: { from: null, to: role.data } } });
    const merchantName = (await getMerchantName(tx, inviter.merchantId)) ?? 'ServicePay';
    const url = `${env().APP_URL}/portal/invitation?token=${token}`;
    await queueAccountEmail(tx, outbox, {
      merchantId: inviter.merchantId,
      kind: 'member_invitation',
      to: email.data,
      email: accountEmails.invitation(merchantName, inviter.name, ROLE_NAMES.es[role.data], url),
      now,
    });
  });
  return { ok: true, expiresAt };
}

type AcceptResult = { ok: true } | { ok: false; problem: 'invalid_token' | 'invalid' | 'already_member' | PasswordProblem };

/** Creates the invitee's user in the inviting merchant with the invited role, and signs it in. */
export async function acceptInvitation(db: Db, input: { token: unknown; name: unknown; password: unknown }, headers: Headers, now: Date = new Date()): Promise<AcceptResult> {
  const token = typeof input.token === 'string' ? input.token : '';
  const invitation = token ? await findOpenInvitation(db, sha256Hex(token), now) : undefined;
  if (!invitation) return { ok: false, problem: 'invalid_token' };
  const name = z.string().trim().min(1).max(100).safeParse(input.name);
  if (!name.success) return { ok: false, problem: 'invalid' };
  const password = typeof input.password === 'string' ? input.password : '';
  const weak = passwordProblem(password, invitation.email);
  if (weak) return { ok: false, problem: weak };
  if (await findUserByEmail(db, invitation.email)) return { ok: false, problem: 'already_member' };
  if (!(await acceptInvitationRow(db, invitation.id, now))) return { ok: false, problem: 'invalid_token' };

  const auth = await getAuth();
  const ctx = await auth.$context;
  const hash = await ctx.password.hash(password);
  const user = await withNewUserMerchant(
    invitation.merchantId,
    () => ctx.internalAdapter.createUser({ name: name.data, email: invitation.email, emailVerified: true }, { method: 'email-password' }),
    invitation.role,
  );
  await ctx.internalAdapter.linkAccount({ userId: user.id, providerId: 'credential', accountId: user.id, password: hash });
  await inTransaction(db, (tx) =>
    recordAudit(tx, { merchantId: invitation.merchantId, actor: { type: 'user', id: user.id, label: invitation.email, ip: null }, action: 'member.joined', target: invitation.email, changes: { role: { from: null, to: invitation.role } } }),
  );
  try {
    await auth.api.signInEmail({ body: { email: invitation.email, password }, headers });
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
  }
  return { ok: true };
}

/** An owner changes a member's role; the last owner stays an owner. */
export async function changeMemberRole(db: Db, owner: PortalUser, input: { userId: unknown; role: unknown }, actor: AuditActor): Promise<{ ok: true } | { ok: false; problem: 'invalid' | 'last_owner' }> {
  const role = roleSchema.safeParse(input.role);
  const userId = typeof input.userId === 'string' ? input.userId : '';
  if (!role.success || !userId) return { ok: false, problem: 'invalid' };
  return inTransaction(db, async (tx) => {
    const members = await listMembers(tx, owner.merchantId);
    const member = members.find((m) => m.id === userId);
    if (!member) return { ok: false as const, problem: 'invalid' as const };
    if (member.role === 'owner' && role.data !== 'owner' && (await countOwners(tx, owner.merchantId)) <= 1) return { ok: false as const, problem: 'last_owner' as const };
    await updateMemberRole(tx, owner.merchantId, userId, role.data);
    await recordAudit(tx, { merchantId: owner.merchantId, actor, action: 'member.role_changed', target: member.email, changes: { role: { from: member.role, to: role.data } } });
    return { ok: true as const };
  });
}

export type { MemberRole };
