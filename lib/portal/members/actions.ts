'use server';

// Ajustes → Miembros' server actions (docs/portal.md#members): owners only; Next refuses one
// posted from another origin.

import { headers } from 'next/headers';
import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { getDb } from '@/db/client';
import { errorState as error, type FormState, formText as text, okState as ok } from '@/lib/portal/form-state';
import { portalLang, signedIn } from '@/lib/portal/request';
import { membersCopy } from '@/lib/portal/members-i18n';
import { acceptInvitation, changeMemberRole, inviteMember } from '@/lib/portal/team';

export async function inviteMemberAction(_: FormState, form: FormData): Promise<FormState> {
  const user = await signedIn('members');
  if (user.refused) return user.refused;
  const m = membersCopy(user.lang);
  const result = await inviteMember(await getDb(), user, { email: text(form, 'email'), role: text(form, 'role') }, user.actor);
  if (!result.ok) return error(m[result.problem]);
  revalidatePath('/portal/settings/members');
  return ok(m.invited);
}

export async function changeRoleAction(_: FormState, form: FormData): Promise<FormState> {
  const user = await signedIn('members');
  if (user.refused) return user.refused;
  const m = membersCopy(user.lang);
  const result = await changeMemberRole(await getDb(), user, { userId: text(form, 'userId'), role: text(form, 'role') }, user.actor);
  if (!result.ok) return error(m[result.problem]);
  revalidatePath('/portal/settings/members');
  return ok(m.roleChanged);
}

export async function acceptInvitationAction(_: FormState, form: FormData): Promise<FormState> {
  const { lang, t } = await portalLang();
  const m = membersCopy(lang);
  const result = await acceptInvitation(await getDb(), { token: text(form, 'token'), name: text(form, 'name'), password: text(form, 'password') }, await headers());
  if (result.ok) redirect('/portal/overview');
  if (result.problem === 'invalid_token' || result.problem === 'invalid' || result.problem === 'already_member') return error(m[result.problem]);
  return error(t.auth.password_problems[result.problem]);
}
