import { Allowed } from '@/components/portal/allowed';
import Link from 'next/link';
import type { EventWithAttempts } from '@/db/queries/webhooks';
import type { Lang } from '@/lib/i18n/locale';
import { formatDateTime, type PortalCopy } from '@/lib/portal/i18n';
import { ActionForm, type FormAction } from './action-form';
import { DataTable } from './data-table';

/** One webhook event: its type and time, every delivery attempt, and the resend button (the page's `resend` action). */
export function WebhookEvent({ event, lang, t, link, resend }: { event: EventWithAttempts; lang: Lang; t: PortalCopy; link?: boolean; resend: FormAction }) {
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
      <p>
        {a.nextRetry}: {event.nextRetryAt ? <time dateTime={event.nextRetryAt.toISOString()}>{formatDateTime(event.nextRetryAt, lang)}</time> : a.noRetry}
      </p>
      {event.attempts.length === 0 ? (
        <p>{a.noAttempts}</p>
      ) : (
        <DataTable
          caption={a.attempts}
          rows={event.attempts}
          rowKey={(attempt) => String(attempt.id)}
          columns={[
            { label: a.attemptTime, cell: (attempt) => `${formatDateTime(attempt.attemptedAt, lang)} (${a.trigger[attempt.trigger]})` },
            { label: a.attemptStatus, cell: (attempt) => attempt.statusCode ?? attempt.error ?? t.dash },
            { label: a.latency, numeric: true, cell: (attempt) => `${attempt.latencyMs} ms` },
            { label: a.reply, cell: (attempt) => <code className="excerpt">{attempt.responseExcerpt || t.dash}</code> },
          ]}
        />
      )}
      <Allowed to="events">
        <ActionForm action={resend} submit={a.resend} pending={t.auth.pending} copy={{ label: t.api.copy, copied: t.api.copied }}>
          <input type="hidden" name="eventId" value={event.id} />
        </ActionForm>
      </Allowed>
    </article>
  );
}
