// Headers of the hosted checkout (/pay/<token>, every state including its 404): a strict
// Content-Security-Policy with a fresh nonce per request, which Next reads from the request's own
// CSP header and puts on its scripts (the page is rendered per request, so it can). Also resolves
// the page's language once, for the page and its not-found alike (DECISIONS 14). The merchant
// portal's pages get their language and headers here too.
//
// `frame-ancestors` comes from the merchant's allowedDomains (DECISIONS 9). A page cannot set
// response headers, so the proxy looks the token up itself: one prepared, indexed query (the
// proxy runs in the server's Node.js process and shares its database client). Every response of
// /pay/<token>, embedded or not, gets the same list; an unknown token, or a lookup that fails,
// gets only our own origin.
import { type NextRequest, NextResponse } from 'next/server';
import { getDb } from '@/db/client';
import { getAllowedDomainsByToken } from '@/db/queries/merchants';
import { frameAncestors } from '@/lib/checkout/embed';
import { LANG_HEADER, resolveLang } from '@/lib/checkout/i18n';
import { TOKEN_PATTERN } from '@/lib/checkout/session';
import { errorFields, log } from '@/lib/log';

function nonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

async function allowedDomainsOf(pathname: string): Promise<string[]> {
  const token = /^\/pay\/([^/]+)\/?$/.exec(pathname)?.[1];
  if (!token || !TOKEN_PATTERN.test(token)) return [];
  try {
    return (await getAllowedDomainsByToken(await getDb(), token)) ?? [];
  } catch (error) {
    log.error('frame-ancestors lookup failed; only our own origin may frame the checkout', errorFields(error));
    return [];
  }
}

/**
 * Development only: React's debugging needs `eval`, and the dev server injects styles inline (a
 * nonce in style-src would make browsers ignore 'unsafe-inline').
 */
function checkoutCsp(nonceValue: string, dev: boolean, ancestors: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonceValue}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`,
    `style-src 'self' ${dev ? "'unsafe-inline'" : `'nonce-${nonceValue}'`}`,
    "img-src 'self'",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    ancestors,
  ].join('; ');
}

/** The portal's language: `?lang=` (then remembered in a cookie), the cookie, or the browser's. */
const PORTAL_LANG_COOKIE = 'servicepay_lang';

function portalProxy(request: NextRequest) {
  const asked = request.nextUrl.searchParams.get('lang');
  const lang = resolveLang(asked ?? request.cookies.get(PORTAL_LANG_COOKIE)?.value, request.headers.get('accept-language'));
  const forwarded = new Headers(request.headers);
  forwarded.set(LANG_HEADER, lang);
  const response = NextResponse.next({ request: { headers: forwarded } });
  // Remembered only when a person asked: a router prefetch of a `?lang=` link is not a choice.
  if (asked && !request.headers.has('next-router-prefetch')) response.cookies.set(PORTAL_LANG_COOKIE, lang, { path: '/portal', sameSite: 'lax', maxAge: 365 * 24 * 3600 });
  // Signed-in pages: never cached, never framed (clickjacking), no URL sent elsewhere.
  response.headers.set('Cache-Control', 'no-store');
  response.headers.set('Content-Security-Policy', "frame-ancestors 'none'");
  response.headers.set('Referrer-Policy', 'same-origin');
  return response;
}

export async function proxy(request: NextRequest) {
  if (request.nextUrl.pathname.startsWith('/portal')) return portalProxy(request);
  const value = nonce();
  const ancestors = frameAncestors(await allowedDomainsOf(request.nextUrl.pathname));
  const csp = checkoutCsp(value, process.env.NODE_ENV === 'development', ancestors);

  const forwarded = new Headers(request.headers);
  forwarded.set('content-security-policy', csp);
  forwarded.set('x-nonce', value);
  forwarded.set(LANG_HEADER, resolveLang(request.nextUrl.searchParams.get('lang'), request.headers.get('accept-language')));

  const response = NextResponse.next({ request: { headers: forwarded } });
  response.headers.set('Content-Security-Policy', csp);
  response.headers.set('Referrer-Policy', 'no-referrer');
  response.headers.set('Cache-Control', 'no-store');
  response.headers.set('X-Content-Type-Options', 'nosniff');
  return response;
}

export const config = { matcher: ['/pay', '/pay/:path*', '/portal', '/portal/:path*'] };
