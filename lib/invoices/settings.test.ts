import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { PATCH } from '@/app/admin/merchants/[id]/route';
import { merchants } from '@/db/schema';
import { useTestDatabase } from '@/test/database';
import { adminHeaders, call } from '@/test/http';
import { createTestMerchant } from '@/test/merchants';
import { openSettings } from './settings';

// E-invoicing settings through the operator API (docs/einvoicing.md#settings): sealed at rest,
// shown as { provider, iva }, and every wrong field a 400 naming it that changes nothing.

let database: Awaited<ReturnType<typeof useTestDatabase>>;
beforeAll(async () => {
  database = await useTestDatabase();
});

const FACTUS = { provider: 'factus', clientId: 'client-1', clientSecret: 'secret-1', username: 'ops@tienda.co', password: 'pw-1', iva: 19 };
const RESOLUTION = { number: '18760000001', prefix: 'SETP', from: 990000000, to: 995000000, startDate: '2019-01-19', endDate: '2030-01-19', technicalKey: 'fc8eac422eba16e22ffd8c6f94b3f40a6e38162c' };
const ALEGRA = { provider: 'alegra', token: 'alegra-token', companyId: 'company-9', resolution: RESOLUTION, iva: 5 };

const patch = (id: string, body: unknown) => call(PATCH, { method: 'PATCH', path: `/admin/merchants/${id}`, params: { id }, headers: adminHeaders(), body });
const row = async (id: string) => (await database.db.select().from(merchants).where(eq(merchants.id, id)))[0]!;

describe('PATCH /admin/merchants/{id} eInvoicing', () => {
  it('turns Factus on with the credentials sealed, shows only provider and iva, and turns it off with null', async () => {
    const m = await createTestMerchant(database.db);
    const before = await patch(m.merchantId, { name: 'Tienda' });
    expect(before.json.eInvoicing).toBeNull();
    const res = await patch(m.merchantId, { eInvoicing: FACTUS });
    expect(res.status).toBe(200);
    expect(res.json.eInvoicing).toEqual({ provider: 'factus', iva: 19 });
    expect(JSON.stringify(res.json)).not.toContain('secret-1');
    const stored = await row(m.merchantId);
    expect(stored.einvoiceSecrets).not.toContain('secret-1');
    expect(openSettings(stored.einvoiceSecrets!, m.merchantId)).toMatchObject({ provider: 'factus', clientSecret: 'secret-1', password: 'pw-1', numberingRangeId: null });
    const off = await patch(m.merchantId, { eInvoicing: null });
    expect(off.status).toBe(200);
    expect(off.json.eInvoicing).toBeNull();
    expect(await row(m.merchantId)).toMatchObject({ einvoiceProvider: null, einvoiceIva: null, einvoiceSecrets: null });
  });

  it('takes Alegra with its resolution, numbering from its start, and keeps counting when the same resolution is sent again', async () => {
    const m = await createTestMerchant(database.db);
    const res = await patch(m.merchantId, { eInvoicing: { ...ALEGRA, iva: 'excluded' } });
    expect(res.status).toBe(200);
    expect(res.json.eInvoicing).toEqual({ provider: 'alegra', iva: 'excluded' });
    expect((await row(m.merchantId)).einvoiceNextNumber).toBe(990000000);
    await database.db.update(merchants).set({ einvoiceNextNumber: 990000042 }).where(eq(merchants.id, m.merchantId));
    await patch(m.merchantId, { eInvoicing: { ...ALEGRA, token: 'rotated' } });
    expect((await row(m.merchantId)).einvoiceNextNumber).toBe(990000042);
    await patch(m.merchantId, { eInvoicing: { ...ALEGRA, resolution: { ...RESOLUTION, number: '18760000002', from: 1, to: 5000 } } });
    expect((await row(m.merchantId)).einvoiceNextNumber).toBe(1);
  });

  it.each([
    ['eInvoicing.iva', { ...FACTUS, iva: 16 }],
    ['eInvoicing.iva', { ...FACTUS, iva: '19' }],
    ['eInvoicing.clientSecret', { ...FACTUS, clientSecret: '' }],
    ['eInvoicing.password', { ...FACTUS, password: undefined }],
    ['eInvoicing.numberingRangeId', { ...FACTUS, numberingRangeId: 0 }],
    ['eInvoicing.token', { ...ALEGRA, token: 7 }],
    ['eInvoicing.resolution', { ...ALEGRA, resolution: undefined }],
    ['eInvoicing.resolution.technicalKey', { ...ALEGRA, resolution: { ...RESOLUTION, technicalKey: RESOLUTION.technicalKey.slice(2) } }],
    ['eInvoicing.resolution.prefix', { ...ALEGRA, resolution: { ...RESOLUTION, prefix: 'SETPX' } }],
    ['eInvoicing.resolution.to', { ...ALEGRA, resolution: { ...RESOLUTION, to: 10 } }],
    ['eInvoicing.resolution.endDate', { ...ALEGRA, resolution: { ...RESOLUTION, endDate: '2018-01-01' } }],
    ['eInvoicing.resolution.startDate', { ...ALEGRA, resolution: { ...RESOLUTION, startDate: '2019-02-30' } }],
    ['eInvoicing.provider', { ...FACTUS, provider: 'siigo' }],
    ['eInvoicing', 'factus'],
  ])('answers 400 naming %s and changes nothing', async (field, eInvoicing) => {
    const m = await createTestMerchant(database.db);
    await patch(m.merchantId, { eInvoicing: FACTUS });
    const before = await row(m.merchantId);
    const res = await patch(m.merchantId, { eInvoicing, name: 'Otro nombre' });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe('invalid_request');
    expect(res.json.error.details.map((d: { path: string }) => d.path)).toContain(field);
    expect(await row(m.merchantId)).toEqual(before);
  });
});
