import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { transactions } from '@/db/schema';
import { payWithCard } from '@/lib/checkout/payments';
import { parseCard } from '@/lib/processors/card';
import type { PaymentProcessor } from '@/lib/processors/processor';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { type NewCharge, openCharge, sendCharge, settleRetriesSettled } from './attempt';

// The one charge attempt (docs/architecture.md#a-charge-attempt), driven the way a new kind of
// charge would drive it (a proration, say: its own amount on the saved method), not through the
// checkout or renewals that use it.

let database: Database;
beforeAll(async () => {
  database = await useTestDatabase();
});

const sandbox = createSandboxProcessor({ pendingMs: 0 });

/** An ACTIVE RECURRING plan with a saved card, and a charge of `amount` on that card. */
async function activePlan(amount = 12_345) {
  const link = await createTestLink(database.db);
  await payWithCard(database.db, sandbox, { token: link.token, card: parseCard(cardForm(CARDS.approved))! });
  const plan = await link.plan();
  expect(plan.status).toBe('ACTIVE');
  const charge: NewCharge = { kind: 'RENEWAL', amount, paymentMethodToken: plan.paymentMethodToken, paymentMethodType: 'CARD' };
  return { plan, charge };
}

const chargeSaved = (processor: PaymentProcessor, email: string) => (txn: typeof transactions.$inferSelect) =>
  processor.charge({ amount: txn.amount, currency: 'COP', reference: txn.id, paymentMethod: txn.paymentMethodToken ?? '', initiator: 'recurring', customerEmail: email });

describe('openCharge and sendCharge', () => {
  it('records the charge the caller names PENDING under the lock, then settles the processor’s answer', async () => {
    const { plan, charge } = await activePlan(777);
    const now = new Date();
    const opened = await openCharge(database.db, { plan: plan.id, now, prepare: async () => charge });
    expect(opened).toMatchObject({ status: 'opened', txn: { status: 'PENDING', kind: 'RENEWAL', amount: 777, chargeDate: now } });
    if (opened.status !== 'opened') return;
    const sent = await sendCharge(database.db, sandbox, opened, chargeSaved(sandbox, plan.customerEmail), { now });
    expect(sent).toMatchObject({ settled: true, transaction: { id: opened.txn.id, status: 'APPROVED', amount: 777 }, result: { status: 'APPROVED' } });
  });

  it('answers in_progress to a second attempt while one is PENDING (the unique index), and records nothing', async () => {
    const { plan, charge } = await activePlan();
    const now = new Date();
    const first = await openCharge(database.db, { plan: plan.id, now, prepare: async () => charge });
    expect(first.status).toBe('opened');
    expect(await openCharge(database.db, { plan: plan.id, now, prepare: async () => charge })).toEqual({ status: 'in_progress' });
    const pending = await database.db.select().from(transactions).where(eq(transactions.status, 'PENDING'));
    expect(pending.filter((t) => t.planId === plan.id)).toHaveLength(1);
  });

  it('inserts nothing when prepare skips or refuses', async () => {
    const { plan } = await activePlan();
    const now = new Date();
    expect(await openCharge(database.db, { plan: plan.id, now, prepare: async () => 'skip' })).toEqual({ status: 'skipped' });
    const refusal = new Error('refused under the lock');
    await expect(openCharge(database.db, { plan: plan.id, now, prepare: async () => Promise.reject(refusal) })).rejects.toBe(refusal);
    expect(await database.db.select().from(transactions).where(eq(transactions.planId, plan.id))).toHaveLength(1);
  });

  it('a call that fails after the processor took the charge: asked by our reference, settled as the processor has it', async () => {
    const { plan, charge } = await activePlan();
    const now = new Date();
    const opened = await openCharge(database.db, { plan: plan.id, now, prepare: async () => charge });
    if (opened.status !== 'opened') throw new Error('not opened');
    const send = async (txn: typeof transactions.$inferSelect) => {
      await chargeSaved(sandbox, plan.customerEmail)(txn);
      throw new Error('connection reset after the charge');
    };
    const sent = await sendCharge(database.db, sandbox, opened, send, { now });
    expect(sent).toMatchObject({ settled: true, result: null, transaction: { status: 'APPROVED' } });
  });

  it('a call that fails and a processor that does not answer: the attempt stays PENDING for the settler', async () => {
    const { plan, charge } = await activePlan();
    const now = new Date();
    const opened = await openCharge(database.db, { plan: plan.id, now, prepare: async () => charge });
    if (opened.status !== 'opened') throw new Error('not opened');
    const silent: PaymentProcessor = { ...sandbox, findByReference: () => Promise.reject(new Error('timeout')) };
    const sent = await sendCharge(database.db, silent, opened, () => Promise.reject(new Error('timeout')), { now });
    expect(sent).toMatchObject({ settled: false, result: null, transaction: { id: opened.txn.id, status: 'PENDING', gatewayTransactionId: null } });
  });
});

describe('a settlement the database refuses', () => {
  /** The database, out of reach for its next `failures` transactions (postgres.js's own error). */
  function flaky(failures: number) {
    let left = failures;
    const db = new Proxy(database.db, {
      get(target, key, receiver) {
        if (key === 'transaction' && left > 0) {
          return async () => {
            left--;
            throw Object.assign(new Error('write CONNECTION_CLOSED 127.0.0.1:5432'), { code: 'CONNECTION_CLOSED' });
          };
        }
        return Reflect.get(target, key, receiver);
      },
    });
    return { db, left: () => left };
  }

  it('answers PENDING, never an error, for a charge the processor took, and records the answer once the database is back', async () => {
    const { plan, charge } = await activePlan(4_321);
    const now = new Date();
    const opened = await openCharge(database.db, { plan: plan.id, now, prepare: async () => charge });
    if (opened.status !== 'opened') throw new Error('not opened');
    // Out of reach for the settlement and its next two tries.
    const down = flaky(3);
    const sent = await sendCharge(down.db, sandbox, opened, chargeSaved(sandbox, plan.customerEmail), { now });
    expect(sent).toMatchObject({ settled: false, transaction: { id: opened.txn.id, status: 'PENDING' }, result: { status: 'APPROVED' } });
    await settleRetriesSettled();
    expect(down.left()).toBe(0);
    const [txn] = await database.db.select().from(transactions).where(eq(transactions.id, opened.txn.id));
    expect(txn).toMatchObject({ status: 'APPROVED', gatewayTransactionId: sent.result!.gatewayTransactionId });
  });

  it('still throws any other database error', async () => {
    const { plan, charge } = await activePlan();
    const now = new Date();
    const opened = await openCharge(database.db, { plan: plan.id, now, prepare: async () => charge });
    if (opened.status !== 'opened') throw new Error('not opened');
    const broken = new Proxy(database.db, {
      get: (target, key, receiver) => (key === 'transaction' ? async () => Promise.reject(new Error('syntax error')) : Reflect.get(target, key, receiver)),
    });
    await expect(sendCharge(broken, sandbox, opened, chargeSaved(sandbox, plan.customerEmail), { now })).rejects.toThrow('syntax error');
  });
});
