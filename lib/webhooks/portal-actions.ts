import { getDb } from '@/db/client';
import { getMerchant } from '@/db/queries/merchants';
import { env } from '@/lib/env';
import { randomBase62 } from '@/lib/ids';
import { deliverEvent } from './deliver';
import { type PostOutcome, postWebhook } from './http';
import { webhookHeaders } from './signature';

// The portal's two webhook buttons, on the delivery code every webhook uses; the portal shows the reply.

/** Records nothing. */
export async function sendTestEvent(merchantId: string): Promise<PostOutcome> {
  const merchant = await getMerchant(await getDb(), merchantId);
  if (!merchant?.webhookUrl) throw new Error('no webhook URL configured');
  const event = {
    // A new id each time, so a de-duplicating receiver still answers.
    id: `evt_test_${randomBase62(16)}`,
    body: JSON.stringify({ event: 'servicepay.test', data: { message: 'Test event from the ServicePay portal' }, timestamp: Date.now() }),
  };
  return postWebhook({
    url: merchant.webhookUrl,
    body: event.body,
    headers: webhookHeaders(event, merchant),
    allowPrivateNetwork: env().WEBHOOK_ALLOW_PRIVATE_NETWORK,
  });
}

/** Recorded as a manual attempt. */
export async function resendEvent(merchantId: string, eventId: string): Promise<void> {
  const db = await getDb();
  const result = await deliverEvent(db, eventId, { trigger: 'manual', merchantId });
  if (result.status === 'no_url') throw new Error('no webhook URL configured');
  if (result.status !== 'sent') throw new Error(`event ${eventId} is not one of this merchant's`);
}
