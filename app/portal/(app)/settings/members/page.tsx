// /portal/settings/members (docs/portal.md#members): the merchant's members and invitations; owners invite and change roles.
import { ActionForm } from '@/components/portal/action-form';
import { DataTable } from '@/components/portal/data-table';
import { getDb } from '@/db/client';
import { MEMBER_ROLES } from '@/db/schema';
import { changeRoleAction, inviteMemberAction } from '@/lib/portal/members/actions';
import { formatDateTime } from '@/lib/portal/i18n';
import { membersCopy } from '@/lib/portal/members-i18n';
import { portalLang, requireUser } from '@/lib/portal/request';
import { can, ROLE_NAMES } from '@/lib/portal/roles';
import { listMembers, listOpenInvitations } from '@/lib/portal/team';

export default async function MembersPage() {
  const user = await requireUser();
  const { lang, t } = await portalLang();
  const m = membersCopy(lang);
  const names = ROLE_NAMES[lang];
  const db = await getDb();
  const [members, invitations] = await Promise.all([listMembers(db, user.merchantId), listOpenInvitations(db, user.merchantId)]);
  const owner = can(user.role, 'members');
  const copy = { label: t.api.copy, copied: t.api.copied };
  const roleSelect = (id: string, current: string) => (
    <label>
      {m.role}
      <select name="role" id={id} defaultValue={current}>
        {MEMBER_ROLES.map((r) => (
          <option key={r} value={r}>
            {names[r]}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <>
      <h1>{m.title}</h1>
      <p>{m.intro}</p>
      <section className="card" aria-labelledby="members">
        <h2 id="members">{m.title}</h2>
        <DataTable
          labelledBy="members"
          rows={members}
          rowKey={(r) => r.id}
          columns={[
            { label: m.email, cell: (r) => r.email },
            { label: m.name, cell: (r) => r.name },
            { label: m.twoFactor, cell: (r) => (r.twoFactorEnabled ? m.yes : m.no) },
            {
              label: m.role,
              cell: (r) =>
                owner ? (
                  <ActionForm action={changeRoleAction} submit={m.changeRole} pending={t.auth.pending} copy={copy}>
                    <input type="hidden" name="userId" value={r.id} />
                    {roleSelect(`role-${r.id}`, r.role)}
                    <span className="visually-hidden">{r.email}</span>
                  </ActionForm>
                ) : (
                  names[r.role]
                ),
            },
          ]}
        />
      </section>
      {invitations.length > 0 && (
        <section className="card" aria-labelledby="pending">
          <h2 id="pending">{m.pendingTitle}</h2>
          <DataTable
            labelledBy="pending"
            rows={invitations}
            rowKey={(r) => r.email}
            columns={[
              { label: m.email, cell: (r) => r.email },
              { label: m.role, cell: (r) => names[r.role] },
              { label: m.expires, cell: (r) => formatDateTime(r.expiresAt, lang) },
            ]}
          />
        </section>
      )}
      <section className="card" aria-labelledby="invite">
        <h2 id="invite">{m.inviteTitle}</h2>
        {owner ? (
          <ActionForm action={inviteMemberAction} submit={m.invite} pending={t.auth.pending} copy={copy}>
            <label>
              {m.email}
              <input name="email" type="email" required />
            </label>
            {roleSelect('invite-role', 'viewer')}
          </ActionForm>
        ) : (
          <p>{m.onlyOwners}</p>
        )}
      </section>
    </>
  );
}
