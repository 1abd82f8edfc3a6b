// /portal/invitation?token=: an invitee chooses a name and a password (docs/portal.md#members).
import type { Metadata } from 'next';
import { ActionForm } from '@/components/portal/action-form';
import { PublicPage } from '@/components/portal/public-page';
import { firstParam } from '@/lib/search-params';
import { acceptInvitationAction } from '@/lib/portal/members/actions';
import { membersCopy } from '@/lib/portal/members-i18n';
import { portalLang } from '@/lib/portal/request';
import { securityCopy } from '@/lib/portal/security-i18n';

// The token in the URL never leaves this site; under no-referrer the form would post `Origin: null`,
// which Server Actions refuse.
export const metadata: Metadata = { referrer: 'same-origin' };

export default async function InvitationPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { lang, t } = await portalLang();
  const m = membersCopy(lang);
  const token = firstParam((await searchParams).token) ?? '';
  return (
    <PublicPage title={m.acceptTitle}>
      <section className="card">
        <p>{m.acceptText}</p>
        <ActionForm action={acceptInvitationAction} submit={m.accept} pending={t.auth.pending} copy={{ label: t.api.copy, copied: t.api.copied }}>
          <input type="hidden" name="token" value={token} />
          <label>
            {t.auth.name}
            <input name="name" autoComplete="name" required maxLength={100} />
          </label>
          <label>
            {securityCopy(lang).security.next}
            <input name="password" type="password" autoComplete="new-password" required aria-describedby="password-hint" />
          </label>
          <p id="password-hint" className="hint">
            {t.auth.passwordHint}
          </p>
        </ActionForm>
      </section>
    </PublicPage>
  );
}
