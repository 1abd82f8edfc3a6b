import { createLinkExamples } from '@/lib/openapi/examples';
import { curlSample } from '@/lib/openapi/curl';

/** The link-creation curl of the docs, with the merchant's own key (and secret, right after creating it). */
export function curlExample(appUrl: string, apiKey?: string, apiSecret?: string): string {
  const { source } = curlSample(appUrl, {
    method: 'POST',
    path: '/merchants/subscription-link',
    auth: 'merchant',
    body: createLinkExamples.recurring.value,
  });
  return source.replace('$API_KEY', apiKey ?? '$API_KEY').replace('$API_SECRET', apiSecret ?? '$API_SECRET');
}
