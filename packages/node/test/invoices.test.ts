import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/db/client';
import { payWithCard } from '@/lib/checkout/payments';
import { parseCard } from '@/lib/processors/card';
import { createSandboxProcessor } from '@/lib/processors/sandbox';
import { deliveriesSettled } from '@/lib/unit-of-work';
import { type ApiServer, startApiServer } from '@/test/api-server';
import { CARDS, cardForm, createTestLink } from '@/test/checkout';
import { useTestDatabase } from '@/test/database';
import { factusDoubleAccount } from '@/test/factus-double';
import { withFactusDouble } from '@/test/invoice-doubles';
import { factusSettings, turnEInvoicingOn } from '@/test/invoices';
import { createTestMerchant } from '@/test/merchants';
import { InvalidRequestError, NotFoundError, PermissionError, ServicePay } from '../src/index.js';

// GET /merchants/invoices and /merchants/invoices/{id} (docs/api.md#invoices) through the SDK over
// real HTTP: what an issued invoice shows, paging, another merchant's 403, a malformed id's 404.

let database: Database;
let api: ApiServer;
const factus = withFactusDouble();
beforeAll(async () => {
  database = await useTestDatabase();
  api = await startApiServer();
});
afterAll(async () => {
  await deliveriesSettled();
  await api.close();
});

const sdk = (m: { apiKey: string; apiSecret: string }) => new ServicePay({ apiKey: m.apiKey, apiSecret: m.apiSecret, baseUrl: api.url });

describe('the invoices API', () => {
  it('lists and shows the invoices of approved charges, newest first, each with number, CUFE, QR and amounts', async () => {
    const link = await createTestLink(database.db, { amount: 4_990_000 });
    await turnEInvoicingOn(database.db, link.merchant.merchantId, factusSettings(factusDoubleAccount(factus()), 19));
    const paid = await payWithCard(database.db, createSandboxProcessor({ pendingMs: 0 }), { token: link.token, card: parseCard(cardForm(CARDS.approved))! });
    await deliveriesSettled();
    const client = sdk(link.merchant);
    const page = await client.invoices.list({ subscriptionPlanId: link.subscriptionPlanId });
    expect(page.nextCursor).toBeNull();
    expect(page.data).toEqual([
      {
        id: expect.stringMatching(/^inv_/),
        kind: 'INVOICE',
        subscriptionTransactionId: paid.subscriptionTransactionId,
        invoiceId: null,
        status: 'ISSUED',
        number: expect.stringMatching(/^SETP\d+$/),
        cufe: expect.stringMatching(/^[0-9a-f]{96}$/),
        qrUrl: expect.stringMatching(/^https:\/\/catalogo-vpfe-hab\.dian\.gov\.co\/document\/searchqr\?documentkey=[0-9a-f]{96}$/),
        total: 4_990_000,
        iva: 796_723,
        period: { start: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), end: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) },
        issuedAt: expect.any(String),
        errors: [],
      },
    ]);
    expect(await client.invoices.retrieve(page.data[0]!.id)).toEqual(page.data[0]);
    expect((await client.invoices.list({ status: 'REJECTED' })).data).toEqual([]);

    const other = await createTestMerchant(database.db);
    await expect(sdk(other).invoices.retrieve(page.data[0]!.id)).rejects.toBeInstanceOf(PermissionError);
    await expect(sdk(other).invoices.list({ subscriptionPlanId: link.subscriptionPlanId })).rejects.toBeInstanceOf(PermissionError);
    await expect(client.invoices.retrieve('inv_nope')).rejects.toBeInstanceOf(NotFoundError);
    await expect(client.invoices.retrieve('inv_0Sq1nC5dE7fG9hJ1kL3mN5pQ')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('answers 400 for a bad filter or page size, naming it', async () => {
    const m = await createTestMerchant(database.db);
    const res = await fetch(`${api.url}/merchants/invoices?status=DONE&limit=0`, { headers: { authorization: `Bearer ${m.apiKey}:${m.apiSecret}` } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { details: { path: string }[] } };
    expect(body.error.details.map((d) => d.path).sort()).toEqual(['limit', 'status']);
    await expect(sdk(m).invoices.list({ limit: 500 })).rejects.toBeInstanceOf(InvalidRequestError);
  });

  it('shows a merchant without e-invoicing an empty list', async () => {
    const m = await createTestMerchant(database.db);
    expect(await sdk(m).invoices.list()).toEqual({ data: [], nextCursor: null });
  });
});
