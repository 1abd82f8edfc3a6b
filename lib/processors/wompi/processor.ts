import type {
  ChargeRequest,
  ChargeResult,
  Consent,
  PaymentProcessor,
  PaymentRequest,
  PaymentResult,
} from '../processor';
import { ProcessorRateLimited } from '../processor';
import { type CreateTransaction, createWompiClient, WompiError, type WompiTransaction, wompiBaseUrl } from './client';
import { integritySignature } from './signatures';

// A merchant's Wompi account as a processor: our `txn_` id as every reference, signed. A RECURRING
// plan's first payment saves a payment source that renewals charge with `recurrent: true`.

export interface WompiKeys {
  publicKey: string;
  privateKey: string;
  eventsSecret: string;
  integritySecret: string;
}

/** Kept as `wompi_source_<TYPE>_<id>`. */
const SOURCE_TOKEN = /^wompi_source_(CARD|NEQUI)_(\d+)$/;

const sourceToken = (type: 'CARD' | 'NEQUI', id: number) => `wompi_source_${type}_${id}`;

const VOID_RECHECK_MS = [500, 1000, 2000];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Wompi documents the PSE description limit as both 30 and 64: keep to 30. */
const PSE_DESCRIPTION_MAX = 30;

export function toChargeResult(transaction: WompiTransaction): ChargeResult {
  const redirectUrl = transaction.payment_method?.extra?.async_payment_url;
  const base = { gatewayTransactionId: transaction.id, ...(redirectUrl ? { redirectUrl } : {}) };
  switch (transaction.status) {
    case 'APPROVED':
      return { status: 'APPROVED', ...base };
    case 'PENDING':
      return { status: 'PENDING', ...base };
    case 'ERROR':
      return { status: 'ERROR', ...base, declineReason: 'processor_error' };
    default:
      return { status: 'DECLINED', ...base };
  }
}

export function createWompiProcessor(keys: WompiKeys, options: { apiUrl?: string; fetch?: typeof fetch } = {}): PaymentProcessor {
  const client = createWompiClient({
    baseUrl: wompiBaseUrl(keys.publicKey, options.apiUrl),
    publicKey: keys.publicKey,
    privateKey: keys.privateKey,
    fetch: options.fetch,
  });

  const signed = (reference: string, amount: number) => ({
    reference,
    amount_in_cents: amount,
    currency: 'COP' as const,
    signature: integritySignature({ reference, amountInCents: amount, currency: 'COP' }, keys.integritySecret),
  });

  const accepted = (consent: Consent) => ({ acceptance_token: consent.acceptanceToken, accept_personal_auth: consent.personalDataToken });

  async function pay(request: PaymentRequest): Promise<PaymentResult> {
    // A fresh pair, spent once: on the payment source (RECURRING) or on the transaction (SINGLE).
    if (!request.consent) throw new Error('Wompi needs both acceptance tokens the payer accepted for this attempt');
    const consent = accepted(request.consent);
    const base: CreateTransaction = {
      ...signed(request.reference, request.amount),
      customer_email: request.customerEmail,
      redirect_url: request.redirectUrl,
    };
    const { instrument } = request;
    let body: CreateTransaction;
    let paymentMethodToken: string | null = null;
    if (instrument.type === 'CARD_TOKEN' || instrument.type === 'NEQUI_TOKEN') {
      const type = instrument.type === 'CARD_TOKEN' ? 'CARD' : 'NEQUI';
      if (request.saveForRenewals) {
        const source = await client.createPaymentSource({ type, token: instrument.token, customer_email: request.customerEmail, ...consent });
        paymentMethodToken = sourceToken(type, source.id);
        // Recorded before the charge: a charge whose reply is lost still renews on it.
        await request.onMethodSaved?.(paymentMethodToken);
        body = { ...base, payment_source_id: source.id, ...(type === 'CARD' ? { payment_method: { installments: 1 } } : {}) };
      } else if (instrument.type === 'CARD_TOKEN') {
        body = { ...base, ...consent, payment_method: { type: 'CARD', installments: 1, token: instrument.token } };
      } else {
        body = { ...base, ...consent, payment_method: { type: 'NEQUI', phone_number: instrument.phoneNumber } };
      }
    } else if (instrument.type === 'NEQUI') {
      if (request.saveForRenewals) throw new Error('A Nequi subscription needs a Nequi token the payer approved');
      body = { ...base, ...consent, payment_method: { type: 'NEQUI', phone_number: instrument.phoneNumber } };
    } else if (instrument.type === 'PSE') {
      body = {
        ...base,
        ...consent,
        payment_method: {
          type: 'PSE',
          user_type: instrument.userType === 'COMPANY' ? 1 : 0,
          user_legal_id_type: instrument.legalIdType,
          user_legal_id: instrument.legalId,
          financial_institution_code: instrument.institutionCode,
          payment_description: request.description.slice(0, PSE_DESCRIPTION_MAX),
        },
        customer_data: { phone_number: `57${instrument.phoneNumber}`, full_name: instrument.fullName },
      };
    } else {
      throw new Error('With Wompi the card is tokenized in the browser; a card number never reaches the server');
    }
    return { ...toChargeResult(await client.createTransaction(body)), paymentMethodToken };
  }

  /** After a void answered PENDING: read again until VOIDED. */
  async function voidedLater(gatewayTransactionId: string): Promise<boolean> {
    for (const wait of VOID_RECHECK_MS) {
      await sleep(wait);
      if ((await client.transaction(gatewayTransactionId)).status === 'VOIDED') return true;
    }
    return false;
  }

  return {
    sandbox: false,
    kind: 'wompi',
    pay,

    async charge(request: ChargeRequest): Promise<ChargeResult> {
      const source = SOURCE_TOKEN.exec(request.paymentMethod);
      if (!source) throw new Error('Not a saved Wompi payment source');
      // Consent was given when the source was made.
      const transaction = await client
        .createTransaction({
          ...signed(request.reference, request.amount),
          ...(request.customerEmail ? { customer_email: request.customerEmail } : {}),
          payment_source_id: Number(source[2]),
          recurrent: request.initiator === 'recurring',
          ...(source[1] === 'CARD' ? { payment_method: { installments: 1 } } : {}),
        })
        .catch((error: unknown) => {
          if (error instanceof WompiError && error.status === 429) throw new ProcessorRateLimited(error.retryAfterMs);
          throw error;
        });
      return toChargeResult(transaction);
    },

    // A source without a charge. One Wompi refuses or does not make AVAILABLE saves nothing.
    async saveMethod({ instrument, customerEmail, consent }) {
      // A card number or bare phone (a forged form) is never sent on.
      if (instrument.type !== 'CARD_TOKEN' && instrument.type !== 'NEQUI_TOKEN') return { ok: false, declineReason: 'card_not_supported' };
      if (!consent) throw new Error('Wompi needs both acceptance tokens on every payment source');
      const type = instrument.type === 'CARD_TOKEN' ? 'CARD' : 'NEQUI';
      try {
        const source = await client.createPaymentSource({ type, token: instrument.token, customer_email: customerEmail, ...accepted(consent) });
        if (source.status !== 'AVAILABLE') return { ok: false, declineReason: 'card_not_supported' };
        return { ok: true, token: sourceToken(type, source.id) };
      } catch (error) {
        if (error instanceof WompiError && error.status >= 400 && error.status < 500 && error.status !== 401) {
          return { ok: false, declineReason: 'card_not_supported' };
        }
        throw error;
      }
    },

    async retrieve(gatewayTransactionId: string) {
      return toChargeResult(await client.transaction(gatewayTransactionId));
    },

    async readTransaction(gatewayTransactionId: string) {
      const transaction = await client.transaction(gatewayTransactionId);
      return { reference: transaction.reference, amountInCents: transaction.amount_in_cents, status: transaction.status, result: toChargeResult(transaction) };
    },

    async findByReference(reference: string) {
      const found = await client.transactionsByReference(reference);
      const transaction = found.find((t) => t.reference === reference);
      return transaction ? toChargeResult(transaction) : null;
    },

    // The reply describes the void (the charge still APPROVED inside it); PENDING means read again.
    async void(gatewayTransactionId: string) {
      const reply = await client.voidTransaction(gatewayTransactionId);
      if (reply.status === 'APPROVED') return { status: 'VOIDED' as const };
      if (reply.status === 'PENDING') return { status: (await voidedLater(gatewayTransactionId)) ? ('VOIDED' as const) : ('PENDING' as const) };
      return { status: 'ERROR' as const };
    },

    async nequiTokenStatus(token: string) {
      return (await client.nequiToken(token)).status;
    },

    async pseInstitutions() {
      const list = await client.pseInstitutions();
      return list.map((i) => ({ code: i.financial_institution_code, name: i.financial_institution_name }));
    },
  };
}
