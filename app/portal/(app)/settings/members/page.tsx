// /portal/settings/members (docs/portal.md#members): the merchant's members and invitations; owners invite and change roles.
import { SelectField } from '@/components/portal/select-field';
import { Card } from '@/components/portal/card';
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
  const roles = MEMBER_ROLES.map((r) => ({ value: r, label: names[r] }));
  const roleSelect = (id: string, current: string) => <SelectField label={m.role} name="role" id={id} defaultValue={current} options={roles} />;
  return (
    <>
      <h1>{m.title}</h1>
      <p>{m.intro}</p>
      <Card id="members" title={m.title}>
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
      </Card>
      {invitations.length > 0 && (
        <Card id="pending" title={m.pendingTitle}>
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
        </Card>
      )}
      <Card id="invite" title={m.inviteTitle}>
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
      </Card>
    </>
  );
}
