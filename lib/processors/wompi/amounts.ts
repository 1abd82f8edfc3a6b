// The amounts Wompi takes (docs/processors.md#amounts): whole pesos, and at least COP 1,500 for cards.
// Checked when a link is made rather than at the customer's payment.

export const WOMPI_MIN_AMOUNT = 150_000;

export function wompiAmountProblem(amount: number): string | null {
  if (amount % 100 !== 0) return 'must be whole pesos (a number of cents ending in 00) for a merchant charging through Wompi';
  if (amount < WOMPI_MIN_AMOUNT) return `must be at least ${WOMPI_MIN_AMOUNT} cents (COP 1.500, the card minimum) for a merchant charging through Wompi`;
  return null;
}
