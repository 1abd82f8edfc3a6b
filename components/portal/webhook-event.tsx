import Link from 'next/link';
import { resendEventAction } from '@/app/portal/actions';
import type { EventWithAttempts } from '@/db/queries/webhooks';
import type { Lang } from '@/lib/i18n/locale';
import { formatDateTime, type PortalCopy } from '@/lib/portal/i18n';
import { ActionForm } from './action-form';

/** One webhook event: its type and time, every delivery attempt, and the resend button. */
export function WebhookEvent({ event, lang, t, link }: { event: EventWithAttempts; lang: Lang; t: PortalCopy; link?: boolean }) {
  const a = t.activity;
  const headingId = `event-${event.id}`;
  return (
    <article className="event" aria-labelledby={headingId}>
      <h3 id={headingId}>
        <code>{event.type}</code> · {formatDateTime(event.createdAt, lang)}
      </h3>
      <p>
        {a.event}: {link ? <Link href={`/portal/activity/events/${event.id}`}>{event.id}</Link> : <code>{event.id}</code>}
      </p>
      {event.attempts.length === 0 ? (
        <p>{a.noAttempts}</p>
      ) : (
        <div className="table-scroll" tabIndex={0} role="region" aria-label={`${a.attempts} ${event.id}`}>
          <table>
            <caption>{a.attempts}</caption>
            <thead>
              <tr>
                <th scope="col">{a.attemptTime}</th>
                <th scope="col">{a.attemptStatus}</th>
                <th scope="col">{a.latency}</th>
                <th scope="col">{a.reply}</th>
              </tr>
            </thead>
            <tbody>
              {event.attempts.map((attempt) => (
                <tr key={attempt.id}>
                  <td>
                    {formatDateTime(attempt.attemptedAt, lang)} ({a.trigger[attempt.trigger]})
                  </td>
                  <td>{attempt.statusCode ?? attempt.error ?? t.dash}</td>
                  <td>{attempt.latencyMs} ms</td>
                  <td>
                    <code className="excerpt">{attempt.responseExcerpt || t.dash}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ActionForm action={resendEventAction} submit={a.resend} pending={t.auth.pending} copy={{ label: t.api.copy, copied: t.api.copied }}>
        <input type="hidden" name="eventId" value={event.id} />
      </ActionForm>
    </article>
  );
}
