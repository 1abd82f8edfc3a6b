// The not-found pages of /pay/<token> and /manage/<token> as full HTML. Next answers a `notFound()`
// thrown while rendering with a body only its client code fills, blank without JavaScript, so
// proxy.ts sends an unknown token to NOT_FOUND_PATH, which app/not-found.tsx renders on the server.

export const NOT_FOUND_PATH = '/_servicepay/not-found';
export const NOT_FOUND_HEADER = 'x-servicepay-not-found';
export type NotFoundSection = 'pay' | 'manage';

export function notFoundSectionOf(value: string | null): NotFoundSection | null {
  return value === 'pay' || value === 'manage' ? value : null;
}
