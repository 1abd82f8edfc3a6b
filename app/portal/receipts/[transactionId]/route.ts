// GET /portal/receipts/<transactionId>: the receipt PDF of one of the signed-in merchant's approved
// charges, in its customer's language (docs/customers.md#receipts); 404 for any other.
import { getDb } from '@/db/client';
import { currentUser } from '@/lib/portal/accounts';
import { loadReceiptPdf, pdfResponse } from '@/lib/receipts/receipt';

export async function GET(req: Request, { params }: { params: Promise<{ transactionId: string }> }) {
  const user = await currentUser(req.headers);
  if (!user) return new Response('Sign in first', { status: 401 });
  const { transactionId } = await params;
  const receipt = await loadReceiptPdf(await getDb(), { transactionId, merchantId: user.merchantId });
  return receipt ? pdfResponse(receipt) : new Response('Not found', { status: 404, headers: { 'Cache-Control': 'no-store' } });
}
