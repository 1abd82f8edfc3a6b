// Is a browser's POST from one of our pages? `Sec-Fetch-Site`, else `Origin`. `Origin: null`
// (our no-referrer token pages) passes; no browser header at all is not a browser.

type HeaderSource = Pick<Headers, 'get'>;

function hostOf(headers: HeaderSource): string | null {
  return headers.get('x-forwarded-host')?.split(',')[0]?.trim() || headers.get('host');
}

/** `null` for the opaque origin, undefined for a malformed one. */
function originHost(origin: string): string | null | undefined {
  if (origin === 'null') return null;
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

export function isCrossOriginPost(headers: HeaderSource): boolean {
  const site = headers.get('sec-fetch-site');
  if (site !== null) return site !== 'same-origin';
  const origin = headers.get('origin');
  if (origin === null) return false;
  const host = originHost(origin);
  return host === undefined || (host !== null && host !== hostOf(headers));
}

/** Whether Next's Server Action check would refuse this (a 500 there; proxy.ts answers 403). */
export function isRefusedServerAction(headers: HeaderSource): boolean {
  const origin = headers.get('origin');
  if (origin !== null && originHost(origin) !== hostOf(headers)) return true;
  return isCrossOriginPost(headers);
}
