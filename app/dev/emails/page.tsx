// /dev/emails (docs/customers.md#e-mails): in development only, the customer e-mails this machine
// made, as they would be sent. Without SMTP_URL this is where they are kept; nothing leaves the
// machine. A built server (production or sandbox deployment) does not have the page: it would show
// every merchant's e-mails and their manage links (proxy.ts answers 404 for all of /dev first).
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getDb } from '@/db/client';
import { loadDevEmailsPage } from '@/lib/email/dev-emails';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'E-mails (development) · ServicePay', robots: { index: false, follow: false } };

export default async function DevEmailsPage() {
  const page = await loadDevEmailsPage(await getDb());
  if (!page) notFound();
  const { emails } = page;
  return (
    <main style={{ maxWidth: '48rem', margin: '0 auto', padding: '1rem' }}>
      <h1>Correos de desarrollo · Development e-mails</h1>
      <p>
        Los correos a clientes que hizo esta instalación, los más recientes primero. Sin <code>SMTP_URL</code> no se envían a ningún lado. · Customer
        e-mails this installation made, newest first. Without <code>SMTP_URL</code> they are sent nowhere.
      </p>
      {emails.length === 0 && <p>Ninguno todavía. · None yet.</p>}
      {emails.map((e) => (
        <article key={e.id} data-testid="dev-email" style={{ borderTop: '1px solid #d9dee7', padding: '1rem 0' }}>
          <h2 style={{ fontSize: '1.1rem' }}>{e.subject}</h2>
          <p>
            <strong>Para · To:</strong> {e.toAddress} · <strong>{e.kind}</strong> · {e.createdAt.toISOString()} · {e.sentAt ? 'sent/kept' : 'pending'}
          </p>
          <pre tabIndex={0} style={{ whiteSpace: 'pre-wrap', background: '#fff', color: '#14213d', border: '1px solid #d9dee7', padding: '0.75rem' }}>
            {e.text}
          </pre>
          <details>
            <summary>HTML</summary>
            <iframe title={`HTML: ${e.subject}`} sandbox="" srcDoc={e.html} style={{ width: '100%', height: '32rem', border: '1px solid #d9dee7' }} />
          </details>
        </article>
      ))}
    </main>
  );
}
