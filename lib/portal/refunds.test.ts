import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '@/db/client';
import { auditLog, transactions } from '@/db/schema';
import { paidPlan } from '@/test/factories';
import { createTestMerchant } from '@/test/merchants';
import { request } from '@/test/next-request';
import { signedInMember } from '@/test/portal-users';
import { useTestDatabase } from '@/test/database';
import { loadPlanPage, loadTransactionsPage } from './activity';
import { IDLE } from './form-state';
import { markRefundedAction } from './transactions/actions';

// Marking a late payment refunded from the portal (docs/billing.md#refund-due): the role check every
// portal action has, another merchant's payment, twice, one not due; the lists flag it until then.

vi.mock('next/headers', () => import('@/test/next-request').then((m) => m.nextHeaders));
vi.mock('next/cache', () => import('@/test/next-request').then((m) => m.nextCache));

let db: Db;
beforeAll(async () => {
  db = (await useTestDatabase()).db;
});

/** A merchant with one approved payment marked refund due, as settlement marks a late PSE payment. */
async function refundDue() {
  const merchant = await createTestMerchant(db);
  const link = await paidPlan(db, { merchant });
  const [txn] = await db.update(transactions).set({ refundDueAt: new Date() }).where(eq(transactions.planId, link.planId)).returning();
  return { merchant, planId: link.planId, txn: txn! };
}

const mark = (transactionId: string) => {
  const form = new FormData();
  form.set('transactionId', transactionId);
  return markRefundedAction(IDLE, form);
};
const refundedAt = async (id: string) => (await db.select().from(transactions).where(eq(transactions.id, id)))[0]!.refundedAt;

describe('markRefundedAction', () => {
  it('flags the payment on Transacciones and the plan page until an admin marks it, once, audited', async () => {
    const due = await refundDue();
    const page = await loadTransactionsPage(db, due.merchant.merchantId, {});
    expect(page.refundsDue.map((r) => r.id)).toEqual([due.txn.id]);
    expect(page.transactions.find((x) => x.id === due.txn.id)?.refundDue).toBe(true);
    expect((await loadPlanPage(db, due.merchant.merchantId, due.planId)).refundsDue.map((r) => r.id)).toEqual([due.txn.id]);

    request.headers = await signedInMember(db, 13, due.merchant.merchantId, 'admin');
    expect(await mark(due.txn.id)).toEqual({ status: 'ok', message: `Marcada como devuelta: ${due.txn.id} ($ 1.500).` });
    const at = await refundedAt(due.txn.id);
    expect(at).toBeInstanceOf(Date);
    const after = await loadTransactionsPage(db, due.merchant.merchantId, {});
    expect(after.refundsDue).toEqual([]);
    expect(after.transactions.find((x) => x.id === due.txn.id)?.refundDue).toBe(false);
    expect((await loadPlanPage(db, due.merchant.merchantId, due.planId)).refundsDue).toEqual([]);

    // Twice: refused, naming when; the first mark stands.
    expect(await mark(due.txn.id)).toMatchObject({ status: 'error', message: expect.stringMatching(/^Este pago ya se marcó como devuelto el .+\.$/) });
    expect(await refundedAt(due.txn.id)).toEqual(at);
    const audit = (await db.select().from(auditLog).where(eq(auditLog.merchantId, due.merchant.merchantId))).filter((e) => e.action === 'transaction.refunded');
    expect(audit).toEqual([expect.objectContaining({ actorType: 'user', target: due.txn.id })]);
  });

  it('refuses a viewer with the 403 naming the role, another merchant’s payment with a 403, and one not due; nothing changes', async () => {
    const due = await refundDue();
    request.headers = await signedInMember(db, 13, due.merchant.merchantId, 'viewer');
    expect(await mark(due.txn.id)).toEqual({
      status: 'error',
      message: 'Prohibido (403): su rol, Lector, no permite esto. Hace falta el rol Administrador o Propietario.',
      details: undefined,
    });
    const other = await createTestMerchant(db);
    request.headers = await signedInMember(db, 13, other.merchantId, 'owner');
    expect(await mark(due.txn.id)).toMatchObject({ status: 'error', message: 'Prohibido (403): este pago es de otra cuenta.' });
    expect(await mark('txn_unknown')).toMatchObject({ status: 'error', message: 'No hay un pago con este id.' });
    expect(await refundedAt(due.txn.id)).toBeNull();

    const paid = await paidPlan(db, { merchant: other });
    const [txn] = await db.select().from(transactions).where(eq(transactions.planId, paid.planId));
    expect(await mark(txn!.id)).toMatchObject({
      status: 'error',
      message: 'Este pago no tiene una devolución pendiente: solo un pago tardío por PSE o Nequi se marca como devuelto.',
    });
    expect(await refundedAt(txn!.id)).toBeNull();
    expect((await db.select().from(auditLog).where(eq(auditLog.action, 'transaction.refunded'))).filter((e) => e.target === due.txn.id || e.target === txn!.id)).toEqual([]);
  });
});
