// /portal/invitation?token=: an invitee chooses a name and a password (docs/portal.md#members).
import type { Metadata } from 'next';
import { NewPasswordField } from '@/components/portal/new-password-field';
import { PublicFormPage } from '@/components/portal/public-form-page';
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
    <PublicFormPage title={m.acceptTitle} text={m.acceptText} action={acceptInvitationAction} submit={m.accept} token={token}>
      <label>
        {t.auth.name}
        <input name="name" autoComplete="name" required maxLength={100} />
      </label>
      <NewPasswordField name="password" label={securityCopy(lang).security.next} hint={t.auth.passwordHint} hintId="password-hint" />
    </PublicFormPage>
  );
}
