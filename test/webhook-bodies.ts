import { type Db, queryRows } from '@/db/client';
import { sql } from 'drizzle-orm';
import { payloadSchemaFor } from '@/lib/webhooks/payload';

// Every webhook body the suite stores must be one the published schema accepts, byte for byte
// as the outbox would write it (docs/webhooks.md#payload). test/database.ts runs this over each
// test database before it is emptied (truncateAll) and before it is dropped, so no test file that
// uses a database can store a body that escapes the check.

/** Throws, naming the events, when a stored body is not a valid webhook payload in its canonical bytes. */
export async function assertStoredWebhookBodiesValid(db: Db): Promise<number> {
  const rows = await queryRows<{ id: string; body: string }>(db, sql`select id, body from webhook_events`);
  const problems: string[] = [];
  for (const row of rows) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(row.body);
    } catch {
      problems.push(`${row.id}: not JSON`);
      continue;
    }
    // Charge bodies and lifecycle bodies (docs/customers.md#lifecycle-events), each by its own schema.
    const result = payloadSchemaFor((parsed as { event?: unknown } | null)?.event).safeParse(parsed);
    if (!result.success) problems.push(`${row.id}: ${result.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
    else if (JSON.stringify(result.data) !== row.body) problems.push(`${row.id}: extra fields or another field order`);
  }
  if (problems.length) throw new Error(`stored webhook bodies the published schema rejects:\n${problems.join('\n')}`);
  return rows.length;
}
