import { randomInt } from 'node:crypto';
import type { Card } from './card';
import type {
  ChargeRequest,
  ChargeResult,
  DeclineReason,
  PaymentInstrument,
  PaymentMethod,
  PaymentProcessor,
  PaymentRequest,
  PaymentResult,
  PseInstitution,
} from './processor';

// The deterministic sandbox (docs/processors.md#the-sandbox): a card's behaviour travels in its
// token and an outcome in its id, so it survives restarts; a repeated reference is the same charge.

export interface SandboxLedger {
  find(reference: string): Promise<string | null>;
  /** Returns the id kept for `reference`, keeping this one if none is. */
  claim(reference: string, gatewayTransactionId: string): Promise<string>;
}

/** In memory, for tests and scripts. */
function memoryLedger(): SandboxLedger {
  const charges = new Map<string, string>();
  return {
    async find(reference) {
      return charges.get(reference) ?? null;
    },
    async claim(reference, gatewayTransactionId) {
      if (!charges.has(reference)) charges.set(reference, gatewayTransactionId);
      return charges.get(reference)!;
    },
  };
}

type Behaviour =
  | 'approve'
  | 'decline'
  | 'error'
  | 'pending_approve'
  | 'pending_decline'
  | 'renewals_decline'
  | 'unsupported'
  | 'nequi_approve'
  | 'nequi_decline';

/** The test cards as a customer types them: the one list tests and tools use. */
export const SANDBOX_CARDS = {
  approved: '4242 4242 4242 4242',
  declined: '4111 1111 1111 1111',
  error: '4000 0000 0000 0119',
  pendingApproved: '4000 0000 0000 0051',
  pendingDeclined: '4000 0000 0000 0069',
  renewalsDecline: '4000 0000 0000 0341',
  unsupported: '5555 5555 5555 4444',
};

const digits = (number: string) => number.replaceAll(' ', '');

const CARDS: Record<string, Behaviour> = {
  [digits(SANDBOX_CARDS.approved)]: 'approve',
  [digits(SANDBOX_CARDS.declined)]: 'decline',
  [digits(SANDBOX_CARDS.error)]: 'error',
  [digits(SANDBOX_CARDS.pendingApproved)]: 'pending_approve',
  [digits(SANDBOX_CARDS.pendingDeclined)]: 'pending_decline',
  [digits(SANDBOX_CARDS.renewalsDecline)]: 'renewals_decline',
};

// The outcome is the last digit of the id's first part.
const OUTCOMES: Record<string, { status: ChargeResult['status']; declineReason?: DeclineReason; pending?: boolean }> = {
  '0': { status: 'APPROVED' },
  '1': { status: 'DECLINED', declineReason: 'insufficient_funds' },
  '2': { status: 'DECLINED', declineReason: 'card_not_supported' },
  '3': { status: 'ERROR', declineReason: 'processor_error' },
  '4': { status: 'APPROVED', pending: true },
  '5': { status: 'DECLINED', declineReason: 'insufficient_funds', pending: true },
};

// Nequi and PSE: the first payment stays PENDING for SANDBOX_PENDING_MS; a saved Nequi account is charged at once.
const NEQUI: Record<string, Behaviour> = { '3991111111': 'nequi_approve', '3992222222': 'nequi_decline' };
const PSE: Record<string, Behaviour> = { '1': 'pending_approve', '2': 'pending_decline' };

export const SANDBOX_PSE_INSTITUTIONS: PseInstitution[] = [
  { code: '1', name: 'Banco que aprueba (sandbox)' },
  { code: '2', name: 'Banco que rechaza (sandbox)' },
];

const BEHAVIOURS = new Set<Behaviour>([...Object.values(CARDS), ...Object.values(NEQUI), ...Object.values(PSE), 'unsupported', 'error']);

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
    case 'nequi_approve':
      return initiator === 'recurring' ? '0' : '4';
    case 'nequi_decline':
      return initiator === 'recurring' ? '1' : '5';
  }
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

const randomHex = () => Array.from({ length: 16 }, () => randomInt(16).toString(16)).join('');

function behaviourOf(instrument: PaymentInstrument): { behaviour: Behaviour; brand?: PaymentMethod['brand']; last4?: string } {
  switch (instrument.type) {
    case 'CARD':
      return { behaviour: CARDS[instrument.card.number] ?? 'unsupported', brand: instrument.card.brand, last4: instrument.card.last4 };
    case 'NEQUI':
    case 'NEQUI_TOKEN':
      return { behaviour: NEQUI[instrument.phoneNumber.replace(/\D/g, '').slice(-10)] ?? 'error' };
    case 'PSE':
      return { behaviour: PSE[instrument.institutionCode] ?? 'error' };
    case 'CARD_TOKEN':
      throw new Error('The sandbox tokenizes cards itself; it takes no browser token');
  }
}

type SandboxProcessor = PaymentProcessor & { tokenize(card: Card): Promise<PaymentMethod> };

export function createSandboxProcessor(options: { pendingMs: number; now?: () => number; ledger?: SandboxLedger }): SandboxProcessor {
  const now = options.now ?? Date.now;
  const ledger = options.ledger ?? memoryLedger();

  function resultOf(gatewayTransactionId: string): ChargeResult {
    const match = GATEWAY_ID.exec(gatewayTransactionId);
    const outcome = match ? OUTCOMES[match[2]!] : undefined;
    if (!match || !outcome) throw new Error(`Unknown sandbox transaction ${gatewayTransactionId}`);
    if (outcome.pending && now() - Number(match[3]) < options.pendingMs) return { status: 'PENDING', gatewayTransactionId };
    return { status: outcome.status, gatewayTransactionId, ...(outcome.declineReason ? { declineReason: outcome.declineReason } : {}) };
  }

  async function charge(request: ChargeRequest): Promise<ChargeResult> {
    const behaviour = TOKEN.exec(request.paymentMethod)?.[1] as Behaviour | undefined;
    if (!behaviour || !BEHAVIOURS.has(behaviour)) throw new Error('Unknown sandbox payment method');
    const id = `${pad(randomInt(10_000), 4)}${outcomeCode(behaviour, request.initiator)}-${pad(now(), 13)}-${pad(randomInt(100_000), 5)}`;
    return resultOf(await ledger.claim(request.reference, id));
  }

  return {
    sandbox: true,
    kind: 'sandbox',
    async tokenize(card: Card): Promise<PaymentMethod> {
      const behaviour = CARDS[card.number] ?? 'unsupported';
      return { token: `pm_sandbox_${behaviour}_${randomHex()}`, brand: card.brand, last4: card.last4 };
    },

    async pay(request: PaymentRequest): Promise<PaymentResult> {
      const { behaviour } = behaviourOf(request.instrument);
      const token = `pm_sandbox_${behaviour}_${randomHex()}`;
      const result = await charge({ amount: request.amount, currency: 'COP', reference: request.reference, paymentMethod: token, initiator: 'customer' });
      const redirect = request.instrument.type === 'PSE' && result.status === 'PENDING' ? { redirectUrl: request.redirectUrl } : {};
      return { ...result, ...redirect, paymentMethodToken: request.instrument.type !== 'PSE' ? token : null };
    },

    async charge(request: ChargeRequest): Promise<ChargeResult> {
      return charge(request);
    },

    async findByReference(reference: string): Promise<ChargeResult | null> {
      const id = await ledger.find(reference);
      return id ? resultOf(id) : null;
    },

    // A zero-amount card check: methods the sandbox declines or fails are refused; the others are saved.
    async saveMethod({ instrument }) {
      if (instrument.type === 'PSE') return { ok: false, declineReason: 'card_not_supported' };
      const { behaviour } = behaviourOf(instrument);
      const refused: Partial<Record<Behaviour, DeclineReason>> = {
        decline: 'insufficient_funds',
        pending_decline: 'insufficient_funds',
        nequi_decline: 'insufficient_funds',
        unsupported: 'card_not_supported',
        error: 'processor_error',
      };
      const reason = refused[behaviour];
      return reason ? { ok: false, declineReason: reason } : { ok: true, token: `pm_sandbox_${behaviour}_${randomHex()}` };
    },

    async pseInstitutions() {
      return SANDBOX_PSE_INSTITUTIONS;
    },

    async retrieve(gatewayTransactionId: string): Promise<ChargeResult> {
      return resultOf(gatewayTransactionId);
    },

    async void(gatewayTransactionId: string) {
      return { status: resultOf(gatewayTransactionId).status === 'APPROVED' ? ('VOIDED' as const) : ('ERROR' as const) };
    },
  };
}
