import type { Db } from '@/db/client';
import { issueDueInvoices, type IssueOptions, type Outcome } from './issue';

// The invoice sweep (docs/einvoicing.md#issuing): every due PENDING document, a first attempt a
// crash lost or a retry whose backoff is over, claimed in batches and issued. Run by the
// in-process timer and by Inngest's cron; several instances share the work through the claims.

const BATCH = 50;
const MAX_BATCHES = 20;

export async function sweepInvoices(db: Db, options: IssueOptions = {}): Promise<Record<Outcome, number> & { claimed: number }> {
  const total = { issued: 0, rejected: 0, retrying: 0, failed: 0, cancelled: 0, lost: 0, claimed: 0 };
  for (let i = 0; i < MAX_BATCHES; i++) {
    const tally = await issueDueInvoices(db, { ...options, limit: BATCH });
    const claimed = Object.values(tally).reduce((a, b) => a + b, 0);
    for (const [k, v] of Object.entries(tally)) total[k as Outcome] += v;
    total.claimed += claimed;
    if (claimed < BATCH) break;
  }
  return total;
}
