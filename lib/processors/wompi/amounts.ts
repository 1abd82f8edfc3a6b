// The amounts Wompi takes (docs/processors.md#amounts): whole pesos (cents ending in 00), and no
// less than the card minimum acquirers quote, COP 1,500. A Wompi merchant's link is refused at
// creation rather than at the customer's payment; the portal counts the live plans that break it.

/** COP 1,500 in cents: the card minimum. */
export const WOMPI_MIN_AMOUNT = 150_000;

/** Why Wompi would refuse this amount in cents, or null. */
export function wompiAmountProblem(amount: number): string | null {
  if (amount % 100 !== 0) return 'must be whole pesos (a number of cents ending in 00) for a merchant charging through Wompi';
  if (amount < WOMPI_MIN_AMOUNT) return `must be at least ${WOMPI_MIN_AMOUNT} cents (COP 1.500, the card minimum) for a merchant charging through Wompi`;
  return null;
}
