// Is a browser's POST from one of our own pages? (docs/customers.md#the-manage-page, docs/portal.md)
// Read from what the browser says about where the request comes from: `Sec-Fetch-Site` when it
// sends it (every current browser), else the `Origin`. A page served with
// `Referrer-Policy: no-referrer` (the manage page and the checkout) posts its forms with
// `Origin: null`, so null alone is not taken as cross-origin: those forms act on a token in their
// own URL, which a page elsewhere cannot know. No browser header at all (curl, a script) is not a
// browser carrying someone's credentials, and is let through as well.

type HeaderSource = Pick<Headers, 'get'>;

/** The host this request was addressed to, as Next.js's own check reads it. */
function hostOf(headers: HeaderSource): string | null {
  return headers.get('x-forwarded-host')?.split(',')[0]?.trim() || headers.get('host');
}

/** The host of an `Origin` value, `null` for the opaque origin, undefined for a malformed one. */
function originHost(origin: string): string | null | undefined {
  if (origin === 'null') return null;
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

/** True when the browser says the request comes from a page of another origin. */
export function isCrossOriginPost(headers: HeaderSource): boolean {
  const site = headers.get('sec-fetch-site');
  if (site !== null) return site !== 'same-origin';
  const origin = headers.get('origin');
  if (origin === null) return false;
  const host = originHost(origin);
  return host === undefined || (host !== null && host !== hostOf(headers));
}

/**
 * True when Next.js's Server Action check would refuse this request (an `Origin` whose host is not
 * the request's, `null` included), or the browser says it is cross-origin. Next answers those with
 * a 500; proxy.ts answers them with a 403 first.
 */
export function isRefusedServerAction(headers: HeaderSource): boolean {
  const origin = headers.get('origin');
  if (origin !== null && originHost(origin) !== hostOf(headers)) return true;
  return isCrossOriginPost(headers);
}
