// GET /manage/<token>/receipts/<transactionId>: the customer's receipt PDF of one approved charge of
// the plan their manage link opens (docs/customers.md#receipts); 404 for anything else.
import { getDb } from '@/db/client';
import { findManagedPlan } from '@/lib/auth/manage-links';
import { langOfTag } from '@/lib/i18n/locale';
import { loadReceiptPdf, pdfResponse } from '@/lib/receipts/receipt';

export async function GET(req: Request, { params }: { params: Promise<{ token: string; transactionId: string }> }) {
  const { token, transactionId } = await params;
  const db = await getDb();
  const managed = await findManagedPlan(db, token);
  const lang = langOfTag(new URL(req.url).searchParams.get('lang') ?? '') ?? undefined;
  const receipt = managed && (await loadReceiptPdf(db, { transactionId, planId: managed.plan.id }, lang));
  return receipt ? pdfResponse(receipt) : new Response('Not found', { status: 404, headers: { 'Cache-Control': 'no-store' } });
}
