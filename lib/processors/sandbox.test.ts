import { describe, expect, it } from 'vitest';
import { parseCard } from './card';
import type { PaymentInstrument } from './processor';
import { createSandboxProcessor } from './sandbox';

let clock = 1_763_740_800_123;
const sandbox = createSandboxProcessor({ pendingMs: 3000, now: () => clock });
const card = (number: string) =>
  parseCard({ cardNumber: number, cardExpiry: '12/30', cardCvc: '123', cardHolder: 'Ana' }, new Date(clock))!;

let references = 0;
const nextReference = () => `txn_${++references}`;

async function pay(number: string, initiator: 'customer' | 'recurring' = 'customer', reference = nextReference()) {
  const method = await sandbox.tokenize(card(number));
  return sandbox.charge({ amount: 150000, currency: 'COP', reference, paymentMethod: method.token, initiator });
}

describe('sandbox processor (docs/processors.md#the-sandbox)', () => {
  it.each([
    ['4242 4242 4242 4242', 'APPROVED', undefined],
    ['4111 1111 1111 1111', 'DECLINED', 'insufficient_funds'],
    ['4000 0000 0000 0119', 'ERROR', 'processor_error'],
    ['4000 0000 0000 0051', 'PENDING', undefined],
    ['4000 0000 0000 0069', 'PENDING', undefined],
    ['4000 0000 0000 0341', 'APPROVED', undefined],
    ['5555 5555 5555 4444', 'DECLINED', 'card_not_supported'],
  ])('%s → %s', async (number, status, reason) => {
    const result = await pay(number.replace(/ /g, ''));
    expect(result.status).toBe(status);
    expect(result.declineReason).toBe(reason);
    expect(result.gatewayTransactionId).toMatch(/^\d+(-\d+)+$/);
  });

  it('settles PENDING charges after SANDBOX_PENDING_MS, approved or declined by the card', async () => {
    const approving = await pay('4000000000000051');
    const declining = await pay('4000000000000069');
    clock += 2999;
    expect((await sandbox.retrieve(approving.gatewayTransactionId)).status).toBe('PENDING');
    clock += 1;
    expect(await sandbox.retrieve(approving.gatewayTransactionId)).toMatchObject({ status: 'APPROVED' });
    expect(await sandbox.retrieve(declining.gatewayTransactionId)).toMatchObject({ status: 'DECLINED', declineReason: 'insufficient_funds' });
  });

  it('approves the first charge of 4000 0000 0000 0341 and declines every renewal', async () => {
    const method = await sandbox.tokenize(card('4000000000000341'));
    const charge = (initiator: 'customer' | 'recurring') =>
      sandbox.charge({ amount: 1, currency: 'COP', reference: nextReference(), paymentMethod: method.token, initiator });
    expect((await charge('customer')).status).toBe('APPROVED');
    expect((await charge('recurring')).status).toBe('DECLINED');
    expect((await charge('recurring')).status).toBe('DECLINED');
  });

  it('keeps only brand and last four of the card in the payment method', async () => {
    const method = await sandbox.tokenize(card('4242424242424242'));
    expect(method).toMatchObject({ brand: 'visa', last4: '4242' });
    expect(method.token).not.toContain('4242424242424242');
  });

  it('voids an approved charge only', async () => {
    expect(await sandbox.void((await pay('4242424242424242')).gatewayTransactionId)).toEqual({ status: 'VOIDED' });
    expect(await sandbox.void((await pay('4111111111111111')).gatewayTransactionId)).toEqual({ status: 'ERROR' });
  });

  it('treats the reference as an idempotency key: a repeated charge is the first one, never a second', async () => {
    const first = await pay('4000000000000051', 'customer', 'txn_repeated');
    const again = await pay('4242424242424242', 'customer', 'txn_repeated');
    expect(again.gatewayTransactionId).toBe(first.gatewayTransactionId);
    expect(again.status).toBe('PENDING');
  });

  it('finds a charge by our reference, and answers null for a reference it never received', async () => {
    const charged = await pay('4111111111111111', 'customer', 'txn_known');
    expect(await sandbox.findByReference('txn_known')).toEqual({
      status: 'DECLINED',
      gatewayTransactionId: charged.gatewayTransactionId,
      declineReason: 'insufficient_funds',
    });
    expect(await sandbox.findByReference('txn_never_sent')).toBeNull();
    // Another sandbox with its own ledger has no record of it: the ledger is what remembers.
    expect(await createSandboxProcessor({ pendingMs: 0 }).findByReference('txn_known')).toBeNull();
  });

  it('refuses payment methods and ids it did not issue', async () => {
    await expect(sandbox.charge({ amount: 1, currency: 'COP', reference: 'r', paymentMethod: 'pm_other', initiator: 'customer' })).rejects.toThrow();
    await expect(sandbox.retrieve('1-2-3')).rejects.toThrow();
  });
  describe('Nequi and PSE with Wompi sandbox data', () => {
    const payWith = (instrument: PaymentInstrument, saveForRenewals = false) =>
      sandbox.pay({
        amount: 150000,
        currency: 'COP',
        reference: nextReference(),
        customerEmail: 'ana@example.com',
        instrument,
        saveForRenewals,
        description: 'Plan',
        redirectUrl: 'http://127.0.0.1/pay/tok?payment=txn_1',
      });
    const pse = (institutionCode: string): PaymentInstrument => ({
      type: 'PSE',
      userType: 'PERSON',
      legalIdType: 'CC',
      legalId: '1020304050',
      institutionCode,
      fullName: 'Ana Gómez',
      phoneNumber: '3001234567',
    });

    it('waits for the payer on Nequi, then approves 3991111111 and declines 3992222222', async () => {
      const approving = await payWith({ type: 'NEQUI', phoneNumber: '3991111111' }, true);
      const declining = await payWith({ type: 'NEQUI', phoneNumber: '399 222 2222' });
      expect([approving.status, declining.status]).toEqual(['PENDING', 'PENDING']);
      clock += 3000;
      expect((await sandbox.retrieve(approving.gatewayTransactionId)).status).toBe('APPROVED');
      expect(await sandbox.retrieve(declining.gatewayTransactionId)).toMatchObject({ status: 'DECLINED', declineReason: 'insufficient_funds' });
      // The saved Nequi account is charged at once on renewals.
      const renewal = await sandbox.charge({ amount: 1, currency: 'COP', reference: nextReference(), paymentMethod: approving.paymentMethodToken!, initiator: 'recurring' });
      expect(renewal.status).toBe('APPROVED');
    });

    it('sends the PSE payer to the bank and back, approved or declined by the bank chosen, and saves nothing', async () => {
      const approving = await payWith(pse('1'));
      const declining = await payWith(pse('2'));
      expect(approving).toMatchObject({ status: 'PENDING', redirectUrl: 'http://127.0.0.1/pay/tok?payment=txn_1', paymentMethodToken: null });
      clock += 3000;
      expect((await sandbox.retrieve(approving.gatewayTransactionId)).status).toBe('APPROVED');
      expect((await sandbox.retrieve(declining.gatewayTransactionId)).status).toBe('DECLINED');
    });

    it('answers an unknown Nequi number or bank with a processor error, not a charge', async () => {
      expect((await payWith({ type: 'NEQUI', phoneNumber: '3000000000' })).status).toBe('ERROR');
      expect((await payWith(pse('999'))).status).toBe('ERROR');
    });
  });
});
