// /portal/activity/events/<id>: one webhook event with its attempts (403 for another merchant's).
import Link from 'next/link';
import { resendEventAction } from '@/lib/portal/webhooks/actions';
import { WebhookEvent } from '@/components/portal/webhook-event';
import { getDb } from '@/db/client';
import { findMerchantEvent } from '@/lib/portal/activity';
import { ownedOrInterrupt, portalLang, requireUser } from '@/lib/portal/request';

export default async function EventPage({ params }: { params: Promise<{ eventId: string }> }) {
  const { merchantId } = await requireUser();
  const { lang, t } = await portalLang();
  const { eventId } = await params;
  const event = await ownedOrInterrupt(findMerchantEvent(await getDb(), merchantId, eventId));
  return (
    <>
      <p>
        <Link href={`/portal/activity/plans/${event.planId}`}>{t.activity.back}</Link>
      </p>
      <h1>{t.activity.event}</h1>
      <WebhookEvent event={event} lang={lang} t={t} resend={resendEventAction} />
    </>
  );
}
