'use server';

// Ajustes → Miembros' server actions (docs/portal.md#members): owners only; Next refuses one
// posted from another origin.

import { headers } from 'next/headers';
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { type Db, getDb } from '@/db/client';
import { errorState as error, type FormState, formText as text, okState as ok } from '@/lib/portal/form-state';
import { portalLang, signedIn } from '@/lib/portal/request';
import { membersCopy } from '@/lib/portal/members-i18n';
import { acceptInvitation, changeMemberRole, inviteMember } from '@/lib/portal/team';

type Owner = Awaited<ReturnType<typeof signedIn>>;

/** An owner's change to the team: refused in the members' words, or done, the page refreshed and `done` said. */
async function teamChange(change: (db: Db, owner: Owner) => Promise<{ ok: true } | { ok: false; problem: 'invalid' | 'already_member' | 'last_owner' }>, done: 'invited' | 'roleChanged'): Promise<FormState> {
  const owner = await signedIn('members');
  if (owner.refused) return owner.refused;
  const m = membersCopy(owner.lang);
  const result = await change(await getDb(), owner);
  if (!result.ok) return error(m[result.problem]);
  revalidatePath('/portal/settings/members');
  return ok(m[done]);
}

export async function inviteMemberAction(_: FormState, form: FormData): Promise<FormState> {
  return teamChange((db, owner) => inviteMember(db, owner, { email: text(form, 'email'), role: text(form, 'role') }, owner.actor), 'invited');
}

export async function changeRoleAction(_: FormState, form: FormData): Promise<FormState> {
  return teamChange((db, owner) => changeMemberRole(db, owner, { userId: text(form, 'userId'), role: text(form, 'role') }, owner.actor), 'roleChanged');
}

export async function acceptInvitationAction(_: FormState, form: FormData): Promise<FormState> {
  const { lang, t } = await portalLang();
  const m = membersCopy(lang);
  const result = await acceptInvitation(await getDb(), { token: text(form, 'token'), name: text(form, 'name'), password: text(form, 'password') }, await headers());
  if (result.ok) redirect('/portal/overview');
  if (result.problem === 'invalid_token' || result.problem === 'invalid' || result.problem === 'already_member') return error(m[result.problem]);
  return error(t.auth.password_problems[result.problem]);
}
