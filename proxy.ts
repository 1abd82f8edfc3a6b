// Headers of the hosted checkout (/pay/<token>, every state including its 404): a strict
// Content-Security-Policy with a fresh nonce per request, which Next reads from the request's own
// CSP header and puts on its scripts (the page is rendered per request, so it can). Also resolves
// the page's language once, for the page and its not-found alike (docs/checkout.md#hosted-page). The merchant
// portal's pages get their language and headers here too.
//
// `frame-ancestors` comes from the merchant's allowedDomains (docs/checkout.md#embedding). A page cannot set
// response headers, so the proxy looks the token up itself: one prepared, indexed query (the
// proxy runs in the server's Node.js process and shares its database client). Every response of
// /pay/<token>, embedded or not, gets the same list; an unknown token, or a lookup that fails,
// gets only our own origin.
import path from 'node:path';
import { type NextRequest, NextResponse } from 'next/server';
import { getDb } from '@/db/client';
import { getAllowedDomainsByToken } from '@/db/queries/merchants';
import { CSP_REPORT_PATH } from '@/lib/checkout/csp-report';
import { frameAncestors } from '@/lib/checkout/embed';
import { inlineStyleHashes } from '@/lib/checkout/style-hashes';
import { devPagesServed, env } from '@/lib/env';
import { LANG_HEADER, resolveLang } from '@/lib/i18n/locale';
import { CHECKOUT_TOKEN_PATTERN } from '@/lib/widget/protocol';
import { errorFields, log } from '@/lib/log';
import { wompiBaseUrl } from '@/lib/processors/wompi/client';
import { findManagedPlan } from '@/lib/auth/manage-links';
import { isRefusedServerAction } from '@/lib/http/same-origin';
import { NOT_FOUND_HEADER, NOT_FOUND_PATH, type NotFoundSection } from '@/lib/http/not-found';

function nonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

async function merchantOf(pathname: string): Promise<{ allowedDomains: string[]; wompiOrigin: string | null; unknown: boolean }> {
  // The page and what hangs below it (the outcome page of a form post), embedded alike.
  const token = /^\/pay\/([^/]+)(?:\/|$)/.exec(pathname)?.[1];
  if (!token || !CHECKOUT_TOKEN_PATTERN.test(token)) return { allowedDomains: [], wompiOrigin: null, unknown: true };
  try {
    const found = await getAllowedDomainsByToken(await getDb(), token);
    return { allowedDomains: found?.allowedDomains ?? [], wompiOrigin: wompiOriginOf(found?.wompiPublicKey), unknown: !found };
  } catch (error) {
    log.error('frame-ancestors lookup failed; only our own origin may frame the checkout', errorFields(error));
    // The page answers for itself.
    return { allowedDomains: [], wompiOrigin: null, unknown: false };
  }
}

/** The one Wompi origin a merchant's page tokenizes at (docs/processors.md), and no other. */
function wompiOriginOf(publicKey: string | null | undefined): string | null {
  return publicKey ? new URL(wompiBaseUrl(publicKey, env().WOMPI_API_URL)).origin : null;
}

let styleHashes: string[] | undefined;

/** The build's inlined CSS, allowed by hash (lib/checkout/style-hashes.ts); read at the first checkout request. */
function inlineStyleSources(): string[] {
  if (!styleHashes) {
    try {
      styleHashes = inlineStyleHashes(path.join(process.cwd(), '.next'));
    } catch (error) {
      log.error('the build\'s inline CSS could not be hashed; the checkout will show unstyled', errorFields(error));
      styleHashes = [];
    }
  }
  return styleHashes;
}

/**
 * Development only: React's debugging needs `eval`, and the dev server injects styles inline (a
 * nonce or hash in style-src would make browsers ignore 'unsafe-inline').
 */
/** What the checkout's and the portal's policies share: scripts under the nonce, nothing else to embed or post elsewhere. */
const nonceScripts = (nonceValue: string, dev: boolean) => `script-src 'self' 'nonce-${nonceValue}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ''}`;
const LOCKED_DOWN = ["object-src 'none'", "base-uri 'none'", "form-action 'self'"];
const REPORTED = [`report-uri ${CSP_REPORT_PATH}`, 'report-to csp'];

function checkoutCsp(nonceValue: string, dev: boolean, ancestors: string, wompiOrigin: string | null): string {
  return [
    "default-src 'self'",
    nonceScripts(nonceValue, dev),
    `style-src 'self' ${dev ? "'unsafe-inline'" : [`'nonce-${nonceValue}'`, ...inlineStyleSources()].join(' ')}`,
    "img-src 'self'",
    "font-src 'self'",
    `connect-src 'self'${wompiOrigin ? ` ${wompiOrigin}` : ''}`,
    ...LOCKED_DOWN,
    ancestors,
    ...REPORTED,
  ].join('; ');
}

/** The portal's language: `?lang=` (then remembered in a cookie), the cookie, or the browser's. */
const PORTAL_LANG_COOKIE = 'servicepay_lang';

/**
 * The portal's script policy (docs/portal.md#headers): only scripts carrying this
 * request's nonce run (Next puts it on its own, every portal page being rendered per request), and
 * what they load; styles and images are the portal's own files and stay outside the policy.
 */
function portalCsp(nonceValue: string, dev: boolean): string {
  return [nonceScripts(nonceValue, dev), ...LOCKED_DOWN, "frame-ancestors 'none'", ...REPORTED].join('; ');
}

function portalProxy(request: NextRequest) {
  const asked = request.nextUrl.searchParams.get('lang');
  const lang = resolveLang(asked ?? request.cookies.get(PORTAL_LANG_COOKIE)?.value, request.headers.get('accept-language'));
  const csp = portalCsp(nonce(), process.env.NODE_ENV === 'development');
  const forwarded = new Headers(request.headers);
  forwarded.set(LANG_HEADER, lang);
  forwarded.set('content-security-policy', csp);
  const response = NextResponse.next({ request: { headers: forwarded } });
  // Remembered only when a person asked: a router prefetch of a `?lang=` link is not a choice.
  if (asked && !request.headers.has('next-router-prefetch')) response.cookies.set(PORTAL_LANG_COOKIE, lang, { path: '/portal', sameSite: 'lax', maxAge: 365 * 24 * 3600 });
  // Signed-in pages: never cached, never framed (clickjacking), no URL sent elsewhere.
  response.headers.set('Cache-Control', 'no-store');
  response.headers.set('Content-Security-Policy', csp);
  response.headers.set('Reporting-Endpoints', `csp="${CSP_REPORT_PATH}"`);
  response.headers.set('Referrer-Policy', 'same-origin');
  return response;
}

/**
 * The customer page, /manage/<token> (docs/customers.md): its language, and headers for a page
 * whose URL is a credential: never cached, never framed, never sent as a referrer. It connects to
 * our origin only, and for a Wompi merchant to the Wompi origin it tokenizes a new method at.
 */
async function manageProxy(request: NextRequest) {
  const token = /^\/manage\/([^/]+)$/.exec(request.nextUrl.pathname)?.[1];
  let wompiOrigin: string | null = null;
  let unknown = false;
  try {
    const found = token ? await findManagedPlan(await getDb(), token) : null;
    wompiOrigin = found?.processorType === 'wompi' ? wompiOriginOf(found.wompiPublicKey) : null;
    unknown = Boolean(token) && !found;
  } catch (error) {
    log.error('manage page lookup failed; it connects to our own origin only', errorFields(error));
  }
  // It collects payment methods as the checkout does, under the checkout's policy; never framed.
  const policy = { ancestors: "frame-ancestors 'none'", wompiOrigin, notFound: unknown ? ('manage' as const) : undefined };
  return underCheckoutPolicy(request, policy, { 'X-Robots-Tag': 'noindex' });
}

/**
 * A checkout-like page under the checkout's policy (a fresh nonce passed on to Next.js), never
 * cached, sending no referrer. With `notFound` (a token the page would answer with `notFound()`),
 * the page is rendered by the root not-found page instead: Next.js serves a `notFound()` thrown
 * by a page as an empty body that only JavaScript fills, and an unmatched path as full HTML
 * (app/not-found.tsx, lib/http/not-found.ts).
 */
function underCheckoutPolicy(
  request: NextRequest,
  { ancestors, wompiOrigin, notFound }: { ancestors: string; wompiOrigin: string | null; notFound?: NotFoundSection },
  extra: Record<string, string> = {},
) {
  const value = nonce();
  const csp = checkoutCsp(value, process.env.NODE_ENV === 'development', ancestors, wompiOrigin);
  const forwarded = new Headers(request.headers);
  forwarded.set('content-security-policy', csp);
  forwarded.set('x-nonce', value);
  forwarded.set(LANG_HEADER, resolveLang(request.nextUrl.searchParams.get('lang'), request.headers.get('accept-language')));
  const page = request.method === 'GET' || request.method === 'HEAD';
  if (notFound && page) forwarded.set(NOT_FOUND_HEADER, notFound);
  const response =
    notFound && page
      ? NextResponse.rewrite(new URL(NOT_FOUND_PATH, request.url), { request: { headers: forwarded } })
      : NextResponse.next({ request: { headers: forwarded } });
  response.headers.set('Content-Security-Policy', csp);
  response.headers.set('Reporting-Endpoints', `csp="${CSP_REPORT_PATH}"`);
  response.headers.set('Referrer-Policy', 'no-referrer');
  response.headers.set('Cache-Control', 'no-store');
  for (const [name, value] of Object.entries(extra)) response.headers.set(name, value);
  return response;
}

/**
 * Every /dev page and route on a built server (docs/customers.md#e-mails): the root not-found page, as an
 * unmatched path is, whatever the method. The pages check again for themselves.
 */
function devPagesGone(request: NextRequest) {
  return NextResponse.rewrite(new URL(NOT_FOUND_PATH, request.url), { status: 404 });
}

const MULTIPART = /^multipart\/form-data/i;
/** Next.js's own limit on a Server Action's body (`serverActions.bodySizeLimit`, 1 MB by default). */
export const FORM_BODY_LIMIT = 1024 * 1024;

const plain = (status: number, text: string) =>
  new NextResponse(text, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'close' } });

/** The body of a clone of `request`, or null once it passes `limit` bytes (then it is not read further). */
async function bodyWithin(request: NextRequest, limit: number): Promise<Uint8Array<ArrayBuffer> | null> {
  const reader = request.clone().body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const read = await reader?.read();
    if (!read || read.done) break;
    size += read.value.byteLength;
    if (size > limit) {
      // Not awaited: a branch of a teed body settles its cancel only once the other branch ends.
      reader!.cancel().catch(() => {});
      return null;
    }
    chunks.push(read.value);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * A form post to a page that Next.js would fail on with a 500 (docs/settlement.md#no-5xx-for-a-bad-request):
 * a body past its 1 MB limit (Next throws a 413 that nothing answers) is a 413 here, and a
 * multipart body that is not multipart at all (its parser throws a TypeError) is a 400. Otherwise
 * the multipart form as read (null for any other post or method), to tell a Server Action by.
 */
async function readFormPost(request: NextRequest): Promise<{ refused: NextResponse } | { form: FormData | null }> {
  if (request.method !== 'POST') return { form: null };
  const tooLarge = () => plain(413, `Payload too large: a form may send at most ${FORM_BODY_LIMIT / 1024 / 1024} MB.\n`);
  if (Number(request.headers.get('content-length') ?? 0) > FORM_BODY_LIMIT) return { refused: tooLarge() };
  const type = request.headers.get('content-type') ?? '';
  if (!MULTIPART.test(type)) return { form: null };
  const body = await bodyWithin(request, FORM_BODY_LIMIT).catch(() => new Uint8Array());
  if (body === null) return { refused: tooLarge() };
  try {
    return { form: await new Response(body, { headers: { 'content-type': type } }).formData() };
  } catch {
    return { refused: plain(400, 'Bad request: the form data could not be read.\n') };
  }
}

/** A Server Action post: a fetch from React (`Next-Action`), or a form posted without JavaScript (its `$ACTION_…` field). */
function isServerAction(request: NextRequest, form: FormData | null): boolean {
  return request.headers.has('next-action') || (form !== null && [...form.keys()].some((name) => name.startsWith('$ACTION_')));
}

export async function proxy(request: NextRequest) {
  const post = await readFormPost(request);
  if ('refused' in post) return post.refused;
  // Next refuses a Server Action from another origin with a 500; it is the sender's fault.
  if (request.method === 'POST' && isServerAction(request, post.form) && isRefusedServerAction(request.headers)) {
    return plain(403, 'Forbidden: this form may only be sent from a page of this site.\n');
  }
  if (/^\/dev(?:\/|$)/.test(request.nextUrl.pathname) && !devPagesServed()) return devPagesGone(request);
  if (request.nextUrl.pathname.startsWith('/manage/')) return manageProxy(request);
  if (!/^\/(?:pay|portal)(?:\/|$)/.test(request.nextUrl.pathname)) return NextResponse.next();
  if (request.nextUrl.pathname.startsWith('/portal')) return portalProxy(request);
  const merchant = await merchantOf(request.nextUrl.pathname);
  const notFound = merchant.unknown && request.nextUrl.pathname !== '/pay' ? ('pay' as const) : undefined;
  return underCheckoutPolicy(request, { ancestors: frameAncestors(merchant.allowedDomains), wompiOrigin: merchant.wompiOrigin, notFound });
}

export const config = {
  matcher: [
    // `:path*` matches the bare path too; every request is checked against each entry in turn
    // (a RegExp made per entry and request), so the three sections share one.
    '/:section(pay|portal|manage)/:path*',
    // Development pages, refused on a built server.
    '/dev/:path*',
    // Every other page, for a multipart post only (the API routes read their own bodies), or a
    // Server Action's fetch.
    {
      source: '/((?!merchants/|checkout/|admin/|api/|processors/|_next/).*)',
      has: [{ type: 'header', key: 'content-type', value: '(?:M|m)(?:U|u)(?:L|l)(?:T|t)(?:I|i)(?:P|p)(?:A|a)(?:R|r)(?:T|t).*' }],
    },
    { source: '/((?!merchants/|checkout/|admin/|api/|processors/|_next/).*)', has: [{ type: 'header', key: 'next-action' }] },
  ],
};
