// /portal/sandbox/emails (docs/portal.md#pruebas): the e-mails this merchant's customers were sent
// on a development or sandbox deployment, newest first, with the links they carry (the manage
// page, a renewal link), scoped to the signed-in merchant. It replaces /dev/emails, which showed
// every merchant's and exists only in development.
import { notFound } from 'next/navigation';
import { getDb } from '@/db/client';
import { formatDateTime } from '@/lib/portal/i18n';
import { portalLang, requireUser } from '@/lib/portal/request';
import { loadSandboxEmails, sandboxToolsShown } from '@/lib/portal/sandbox-page';
import { sandboxCopy } from '@/lib/portal/sandbox-i18n';

export const dynamic = 'force-dynamic';

export default async function SandboxEmailsPage() {
  if (!sandboxToolsShown()) notFound();
  const { merchantId } = await requireUser();
  const { lang } = await portalLang();
  const t = sandboxCopy(lang);
  const emails = await loadSandboxEmails(await getDb(), merchantId);
  return (
    <>
      <h1>{t.emailsTitle}</h1>
      <p>{t.emailsIntro}</p>
      {emails.length === 0 && <p>{t.noEmails}</p>}
      {emails.map((e) => (
        <article key={e.id} className="card" data-testid="sandbox-email" aria-labelledby={`email-${e.id}`}>
          <h2 id={`email-${e.id}`}>{e.subject}</h2>
          <dl>
            <dt>{t.to}</dt>
            <dd>{e.toAddress}</dd>
            <dt>{t.sentAt}</dt>
            <dd>
              <time dateTime={e.createdAt.toISOString()}>{formatDateTime(e.createdAt, lang)}</time>
            </dd>
            <dt>{t.kind}</dt>
            <dd>
              <code>{e.kind}</code>
            </dd>
          </dl>
          {e.links.length > 0 && (
            <nav aria-label={`${t.links}: ${e.subject}`}>
              <ul>
                {e.links.map((url) => (
                  <li key={url}>
                    <a href={url}>{url}</a>
                  </li>
                ))}
              </ul>
            </nav>
          )}
          <pre tabIndex={0} className="excerpt" style={{ whiteSpace: 'pre-wrap' }}>
            {e.text}
          </pre>
          <details>
            <summary>{t.html}</summary>
            <iframe title={`HTML: ${e.subject}`} sandbox="" srcDoc={e.html} style={{ width: '100%', height: '32rem', border: '1px solid #d9dee7' }} />
          </details>
        </article>
      ))}
    </>
  );
}
