// The not-found pages of /pay/<token> and /manage/<token> as full HTML (docs/checkout.md#hosted-page,
// docs/customers.md#the-manage-page). Next.js answers a `notFound()` thrown while a page renders
// with an empty body that only its client code fills in, so without JavaScript the customer saw a
// blank page; an unmatched path, though, is rendered on the server by app/not-found.tsx. proxy.ts
// therefore sends an unknown token's page to NOT_FOUND_PATH (which no route matches), naming the
// section in NOT_FOUND_HEADER so the page says the right thing. Pages keep their own `notFound()`
// for a token that lapses between the two.

export const NOT_FOUND_PATH = '/_servicepay/not-found';
export const NOT_FOUND_HEADER = 'x-servicepay-not-found';
export type NotFoundSection = 'pay' | 'manage';

export function notFoundSectionOf(value: string | null): NotFoundSection | null {
  return value === 'pay' || value === 'manage' ? value : null;
}
