import { randomInt } from 'node:crypto';
import type { Card } from './card';
import type { ChargeRequest, ChargeResult, DeclineReason, PaymentMethod, PaymentProcessor } from './processor';

// The deterministic sandbox of DECISIONS 7. It keeps no state: the card's behaviour travels in
// the payment-method token, and a charge's outcome in its processor id, so a PENDING charge
// settles the same way after a restart or on another instance.

type Behaviour = 'approve' | 'decline' | 'error' | 'pending_approve' | 'pending_decline' | 'renewals_decline' | 'unsupported';

const CARDS: Record<string, Behaviour> = {
  '4242424242424242': 'approve',
  '4111111111111111': 'decline',
  '4000000000000119': 'error',
  '4000000000000051': 'pending_approve',
  '4000000000000069': 'pending_decline',
  '4000000000000341': 'renewals_decline',
};

// Final outcome of a charge, as the last digit of the first part of its id.
const OUTCOMES: Record<string, { status: ChargeResult['status']; declineReason?: DeclineReason; pending?: boolean }> = {
  '0': { status: 'APPROVED' },
  '1': { status: 'DECLINED', declineReason: 'insufficient_funds' },
  '2': { status: 'DECLINED', declineReason: 'card_not_supported' },
  '3': { status: 'ERROR', declineReason: 'processor_error' },
  '4': { status: 'APPROVED', pending: true },
  '5': { status: 'DECLINED', declineReason: 'insufficient_funds', pending: true },
};

const BEHAVIOURS = new Set<Behaviour>([...Object.values(CARDS), 'unsupported']);

const TOKEN = /^pm_sandbox_([a-z_]+)_[0-9a-f]{16}$/;
const GATEWAY_ID = /^(\d{4})(\d)-(\d{13})-(\d{5})$/;

function outcomeCode(behaviour: Behaviour, initiator: ChargeRequest['initiator']): string {
  switch (behaviour) {
    case 'approve':
      return '0';
    case 'renewals_decline':
      return initiator === 'recurring' ? '1' : '0';
    case 'decline':
      return '1';
    case 'unsupported':
      return '2';
    case 'error':
      return '3';
    case 'pending_approve':
      return '4';
    case 'pending_decline':
      return '5';
  }
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

export function createSandboxProcessor(options: { pendingMs: number; now?: () => number }): PaymentProcessor {
  const now = options.now ?? Date.now;

  function resultOf(gatewayTransactionId: string): ChargeResult {
    const match = GATEWAY_ID.exec(gatewayTransactionId);
    const outcome = match ? OUTCOMES[match[2]!] : undefined;
    if (!match || !outcome) throw new Error(`Unknown sandbox transaction ${gatewayTransactionId}`);
    if (outcome.pending && now() - Number(match[3]) < options.pendingMs) return { status: 'PENDING', gatewayTransactionId };
    return { status: outcome.status, gatewayTransactionId, ...(outcome.declineReason ? { declineReason: outcome.declineReason } : {}) };
  }

  return {
    sandbox: true,
    async tokenize(card: Card): Promise<PaymentMethod> {
      const behaviour = CARDS[card.number] ?? 'unsupported';
      const random = Array.from({ length: 16 }, () => randomInt(16).toString(16)).join('');
      return { token: `pm_sandbox_${behaviour}_${random}`, brand: card.brand, last4: card.last4 };
    },

    async charge(request: ChargeRequest): Promise<ChargeResult> {
      const behaviour = TOKEN.exec(request.paymentMethod)?.[1] as Behaviour | undefined;
      if (!behaviour || !BEHAVIOURS.has(behaviour)) throw new Error('Unknown sandbox payment method');
      const id = `${pad(randomInt(10_000), 4)}${outcomeCode(behaviour, request.initiator)}-${pad(now(), 13)}-${pad(randomInt(100_000), 5)}`;
      return resultOf(id);
    },

    async retrieve(gatewayTransactionId: string): Promise<ChargeResult> {
      return resultOf(gatewayTransactionId);
    },

    async void(gatewayTransactionId: string) {
      return { status: resultOf(gatewayTransactionId).status === 'APPROVED' ? ('VOIDED' as const) : ('ERROR' as const) };
    },
  };
}
