import { embedBridgeScript } from '@/lib/checkout/embed';

// The checkout inside the widget's iframe talks to the merchant's page through this inline script
// (lib/checkout/embed.ts says why inline). Server-rendered: it carries the request's CSP nonce.

export function EmbedBridge({ nonce, target, subscriptionPlanId }: { nonce: string; target: string; subscriptionPlanId: string }) {
  // Browsers hide a nonce from the DOM once the script has run, so hydration sees an empty one.
  return <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: embedBridgeScript(target, subscriptionPlanId) }} />;
}
