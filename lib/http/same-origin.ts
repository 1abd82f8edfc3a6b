// Is a browser's POST from one of our own pages? `Sec-Fetch-Site`, else `Origin`. `Origin: null`
// (our no-referrer pages) is let through: those forms act on a token in their own URL. No browser
// header at all is not a browser carrying someone's credentials.

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

/** True when Next's Server Action check would refuse this request (a 500 there; proxy.ts answers 403). */
export function isRefusedServerAction(headers: HeaderSource): boolean {
  const origin = headers.get('origin');
  if (origin !== null && originHost(origin) !== hostOf(headers)) return true;
  return isCrossOriginPost(headers);
}
