import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { POST } from '@/app/merchants/subscription-link/route';
import { subscriptionPlans } from '@/db/schema';
import { useTestDatabase } from '@/test/database';
import { call } from '@/test/http';
import { createTestMerchant, linkBody, type TestMerchant } from '@/test/merchants';
import { buyerOf } from './documents';

// The buyer an invoice is made out to (docs/einvoicing.md#the-buyer): the final consumer by
// default, or `customer.taxId` / `customer.legalName` given at link creation, a NIT's check digit
// computed and checked; each bad field a 400 naming it, and no plan made.

let database: Awaited<ReturnType<typeof useTestDatabase>>;
let merchant: TestMerchant;
beforeAll(async () => {
  database = await useTestDatabase();
  merchant = await createTestMerchant(database.db);
});

const create = (customer: Record<string, unknown>, version = '2026-11-28') =>
  call(POST, { path: '/merchants/subscription-link', headers: { ...merchant.headers, 'ServicePay-Version': version }, body: linkBody({ customer: { phone: '+573001234567', email: 'compras@empresa.example', ...customer } }) });
const planOf = async (id: string) => (await database.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, id)))[0]!;
const plansCount = async () => (await database.db.select().from(subscriptionPlans).where(eq(subscriptionPlans.merchantId, merchant.merchantId))).length;

describe('customer.taxId at link creation', () => {
  it('is the final consumer when left out', async () => {
    const res = await create({});
    expect(res.status).toBe(200);
    expect(buyerOf(await planOf(res.json.subscriptionPlanId))).toEqual({ taxId: null, legalName: 'Consumidor final', email: 'compras@empresa.example' });
  });

  it.each([
    ['900559088', 2],
    ['900559088-2', 2],
    ['900.559.088-2', 2],
    ['800197268', 4],
  ])('reads the NIT %s and keeps its check digit apart', async (number, dv) => {
    const res = await create({ taxId: { type: 'NIT', number }, legalName: 'Empresa de Pruebas SAS' });
    expect(res.status).toBe(200);
    const plan = await planOf(res.json.subscriptionPlanId);
    expect(plan).toMatchObject({ customerTaxIdType: 'NIT', customerTaxIdNumber: number.replace(/[.]/g, '').replace(/-\d$/, ''), customerTaxIdDv: dv, customerLegalName: 'Empresa de Pruebas SAS' });
    expect(buyerOf(plan)).toEqual({ taxId: { type: 'NIT', number: plan.customerTaxIdNumber, dv }, legalName: 'Empresa de Pruebas SAS', email: 'compras@empresa.example' });
  });

  it('keeps a cédula whole, named by the customer when no legal name is given', async () => {
    const res = await create({ taxId: { type: 'CC', number: '1020304050' }, firstName: 'Ana', lastName: 'Gómez' });
    expect(res.status).toBe(200);
    expect(buyerOf(await planOf(res.json.subscriptionPlanId))).toEqual({ taxId: { type: 'CC', number: '1020304050', dv: null }, legalName: 'Ana Gómez', email: 'compras@empresa.example' });
  });

  it('is ignored by version 2026-11-20, which does not know it', async () => {
    const res = await create({ taxId: { type: 'NIT', number: '900559088-7' } }, '2026-11-20');
    expect(res.status).toBe(200);
    expect((await planOf(res.json.subscriptionPlanId)).customerTaxIdNumber).toBeNull();
  });

  it.each([
    ['customer.taxId.number', { taxId: { type: 'NIT', number: '900559088-7' }, legalName: 'X SAS' }, "this NIT's is 2"],
    ['customer.taxId.number', { taxId: { type: 'NIT', number: '12-AB' }, legalName: 'X SAS' }, 'must be a NIT'],
    ['customer.taxId.number', { taxId: { type: 'NIT', number: 900559088 }, legalName: 'X SAS' }, 'must be a string'],
    ['customer.taxId.number', { taxId: { type: 'CC', number: '222222222222' } }, 'final consumer'],
    ['customer.taxId.number', { taxId: { type: 'CC', number: '01234' } }, 'cédula'],
    ['customer.taxId.number', { taxId: { type: 'PP', number: 'AB 12' } }, 'letters and digits'],
    ['customer.taxId.type', { taxId: { type: 'RUT', number: '900559088' } }, 'must be one of'],
    ['customer.taxId', { taxId: 'NIT 900559088' }, 'must be an object'],
    ['customer.legalName', { taxId: { type: 'NIT', number: '900559088' } }, "company's name"],
    ['customer.legalName', { taxId: { type: 'NIT', number: '900559088' }, legalName: '   ' }, 'blank'],
    ['customer.taxId', { legalName: 'Empresa SAS' }, 'is required'],
  ])('answers 400 naming %s and makes no plan', async (path, customer, message) => {
    const before = await plansCount();
    const res = await create(customer);
    expect(res.status).toBe(400);
    expect(res.json.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path, message: expect.stringContaining(message) })]));
    expect(await plansCount()).toBe(before);
  });
});

describe('plan.iva at link creation', () => {
  const withIva = (iva: unknown, version = '2026-11-28') =>
    call(POST, { path: '/merchants/subscription-link', headers: { ...merchant.headers, 'ServicePay-Version': version }, body: linkBody({ plan: { iva } }) });

  it.each([19, 5, 0, 'excluded'])('keeps %s on the plan', async (iva) => {
    const res = await withIva(iva);
    expect(res.status).toBe(200);
    expect((await planOf(res.json.subscriptionPlanId)).iva).toBe(String(iva));
  });

  it.each([16, '19', 'exento', null])('answers 400 naming plan.iva for %s and makes no plan', async (iva) => {
    const before = await plansCount();
    const res = await withIva(iva);
    expect(res.status).toBe(400);
    expect(res.json.error.details).toEqual([expect.objectContaining({ path: 'plan.iva', message: expect.stringContaining('must be 19, 5, 0 (exempt) or "excluded"') })]);
    expect(await plansCount()).toBe(before);
  });

  it('is ignored by version 2026-11-26, which does not know it', async () => {
    const res = await withIva(5, '2026-11-26');
    expect(res.status).toBe(200);
    expect((await planOf(res.json.subscriptionPlanId)).iva).toBeNull();
  });
});
