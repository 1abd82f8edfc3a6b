import type { ReactNode } from 'react';
import { portalLang } from '@/lib/portal/request';
import { ActionForm, type FormAction } from './action-form';
import { PublicPage } from './public-page';

interface PublicFormPageProps {
  title: string;
  /** What the page asks for, above the form. */
  text?: string;
  action: FormAction;
  submit: string;
  /** The e-mailed link's token, posted back with the form. */
  token?: string;
  /** The form's fields. */
  children?: ReactNode;
  /** Links under the card (back to sign-in, ask again). */
  links?: ReactNode;
}

/** A signed-out portal page that is one form (forgot or reset password, verify e-mail, invitation, second factor). */
export async function PublicFormPage({ title, text, action, submit, token, children, links }: PublicFormPageProps) {
  const { t } = await portalLang();
  return (
    <PublicPage title={title}>
      <section className="card">
        {text && <p>{text}</p>}
        <ActionForm action={action} submit={submit} pending={t.auth.pending} copy={{ label: t.api.copy, copied: t.api.copied }}>
          {token !== undefined && <input type="hidden" name="token" value={token} />}
          {children}
        </ActionForm>
      </section>
      {links && <p>{links}</p>}
    </PublicPage>
  );
}
