import { allowedDomainProblem } from '@/lib/merchants/schemas';
import { EMBED_MESSAGE_TYPE } from '@/lib/widget/protocol';

// Who may embed a merchant's checkout (docs/checkout.md#embedding), decided from its `allowedDomains`. Pure, so
// proxy.ts (the header) and the page (where its messages may go) apply the same rules, and both
// match entries the way browsers match the scheme-less sources of `frame-ancestors`.

/** Entries as they may appear in a header: normalised, and anything the schema refuses dropped. */
function usableEntries(allowedDomains: readonly string[]): string[] {
  const entries = allowedDomains.map((entry) => entry.trim().toLowerCase());
  return [...new Set(entries.filter((entry) => allowedDomainProblem(entry) === null))];
}

/** `frame-ancestors 'self' shop.example.com *.example.com`; an empty list leaves only our own origin. */
export function frameAncestors(allowedDomains: readonly string[]): string {
  return ["frame-ancestors 'self'", ...usableEntries(allowedDomains)].join(' ');
}

const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** CSP's matching of a scheme-less `host[:port]` source against an ancestor's origin. */
export function originMatchesEntry(origin: URL, entry: string, ownScheme: string): boolean {
  const schemeOk = origin.protocol === ownScheme || (ownScheme === 'http:' && origin.protocol === 'https:');
  if (!schemeOk) return false;
  const [, host = '', port] = /^(.*?)(?::(\d+))?$/.exec(entry) ?? [];
  const originPort = origin.port || DEFAULT_PORT[origin.protocol];
  if ((port ?? DEFAULT_PORT[origin.protocol]) !== originPort) return false;
  return host.startsWith('*.') ? origin.hostname.endsWith(host.slice(1)) : origin.hostname === host;
}

/** The origin the embedded checkout may post to: ours or one on the merchant's list, else null. */
export function embedTargetOrigin(claimed: string | undefined, allowedDomains: readonly string[], appOrigin: string): string | null {
  if (!claimed || !URL.canParse(claimed)) return null;
  const origin = new URL(claimed);
  if (origin.origin !== claimed || !(origin.protocol in DEFAULT_PORT)) return null;
  const own = new URL(appOrigin);
  if (origin.origin === own.origin) return origin.origin;
  return usableEntries(allowedDomains).some((entry) => originMatchesEntry(origin, entry, own.protocol)) ? origin.origin : null;
}

/**
 * The embedded page's side of the widget's messages, inline with the page's nonce so its first
 * message arrives before the iframe's `load`. Reports state changes, forwards Escape, posts only to
 * `target` and listens to nobody.
 */
export function embedBridgeScript(target: string, subscriptionPlanId: string): string {
  const args = [EMBED_MESSAGE_TYPE, target, subscriptionPlanId].map((v) => JSON.stringify(v).replace(/</g, '\\u003c')).join(',');
  return `(function(type,target,planId){
var up=window.parent,last;if(up===window)return;
function post(m){m.type=type;up.postMessage(m,target)}
function report(){var r=document.querySelector('[data-checkout-state]');if(!r)return;
var s=r.getAttribute('data-checkout-state'),t=r.getAttribute('data-transaction-id')||undefined;
if(s+'|'+t===last)return;last=s+'|'+t;post({state:s,transactionId:t,subscriptionPlanId:planId})}
report();
new MutationObserver(report).observe(document.body,{subtree:true,attributes:true,attributeFilter:['data-checkout-state','data-transaction-id']});
addEventListener('keydown',function(e){if(e.key==='Escape')post({action:'close'})})
})(${args})`;
}
