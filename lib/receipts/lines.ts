// A charge's lines (docs/billing.md#receipt-lines): the fixed part (unit price × seats), the setup
// fee, metered usage and the discount, adding up to what was charged. The one place they are
// worked out: the receipt PDF shows them, and e-invoices (lib/einvoicing) take the same lines.
import type { TransactionRow } from '@/db/queries/transactions';

export type ChargeLine =
  | { kind: 'fixed'; quantity: number; unitAmount: number; amount: number }
  | { kind: 'setup_fee'; amount: number }
  | { kind: 'usage'; quantity: number; amount: number }
  | { kind: 'discount'; amount: number };

/** What of a transaction its lines are read from. */
export type ChargedTransaction = Pick<TransactionRow, 'kind' | 'amount' | 'discount' | 'quantity' | 'unitAmount' | 'setupFee' | 'usageUnits' | 'usageAmount'>;

/**
 * The lines of a charge, in order; their amounts (cents, the discount negative) add up to `amount`.
 * A charge recorded without seats (a proration, one from before quantities) has one fixed line.
 */
export function chargeLines(txn: ChargedTransaction): ChargeLine[] {
  const fixed = txn.amount + txn.discount - txn.setupFee - txn.usageAmount;
  const seats = txn.quantity !== null && txn.unitAmount !== null && txn.quantity * txn.unitAmount === fixed;
  const lines: ChargeLine[] = [];
  // A trial's setup fee is a charge of its own, with no fixed part.
  if (txn.kind !== 'SETUP_FEE') lines.push({ kind: 'fixed', quantity: seats ? txn.quantity! : 1, unitAmount: seats ? txn.unitAmount! : fixed, amount: fixed });
  if (txn.setupFee > 0) lines.push({ kind: 'setup_fee', amount: txn.setupFee });
  if (txn.usageUnits !== null) lines.push({ kind: 'usage', quantity: txn.usageUnits, amount: txn.usageAmount });
  if (txn.discount > 0) lines.push({ kind: 'discount', amount: -txn.discount });
  return lines;
}

/** Whether the lines say more than the list price does: worth itemising on a receipt. */
export function itemised(lines: ChargeLine[]): boolean {
  return lines.some((line) => (line.kind === 'fixed' ? line.quantity !== 1 : line.kind !== 'discount'));
}
