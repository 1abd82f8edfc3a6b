import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { createMerchant } from '@/lib/merchants/merchants';

// Many RECURRING plans in one statement, for the renewal benchmarks and the sweep's tests at scale:
// ACTIVE plans with a saved method, the first `due` of them due just before `dueAt`, the rest spread
// over the next month (a fifth of those PAUSED or CANCELLED, which the due index leaves out).

export interface SeedPlans {
  count: number;
  due: number;
  dueAt: Date;
  /** Makes the ids unique: at most 20 characters. */
  prefix: string;
  /** The merchant; a new one when absent. */
  merchantId?: string;
  /**
   * The saved method of plan i (1-based), as SQL over `i`: the sandbox's approving card by default,
   * or a Wompi payment source (`wompiSourceFrom`: the first source id; plan i charges source first + i - 1).
   */
  wompiSourceFrom?: number;
  amount?: number;
}

export async function seedPlans(db: Db, { count, due, dueAt, prefix, merchantId, wompiSourceFrom, amount = 150000 }: SeedPlans): Promise<{ merchantId: string }> {
  const merchant = merchantId ?? (await createMerchant(db, { name: `Bench ${prefix}` })).merchantId;
  const customerId = `cus_${prefix.padEnd(24, '0')}`;
  await db.execute(sql`insert into customers (id, merchant_id, email, phone) values (${customerId}, ${merchant}, 'bench@example.com', '+573001234567')`);
  const token =
    wompiSourceFrom === undefined ? sql`'pm_sandbox_approve_' || lpad(to_hex(i), 16, '0')` : sql`'wompi_source_CARD_' || (${wompiSourceFrom}::bigint + i - 1)`;
  await db.execute(sql`
    insert into subscription_plans (id, merchant_id, customer_id, external_reference, description, amount, modality,
      status, next_charge_date, billing_anchor_day, payment_method_token, checkout_token, token_expires_at,
      customer_phone, customer_email)
    select 'sub_' || ${prefix} || lpad(i::text, ${24 - prefix.length}, '0'), ${merchant}, ${customerId}, 'bench-' || ${prefix} || i,
      'Plan mensual', ${amount}, 'RECURRING',
      case when i <= ${due} then 'ACTIVE' when i % 10 = 0 then 'PAUSED' when i % 10 = 1 then 'CANCELLED' else 'ACTIVE' end,
      case when i <= ${due} then ${dueAt.toISOString()}::timestamptz - (i || ' seconds')::interval
           else ${dueAt.toISOString()}::timestamptz + (i % 2592000 + 60 || ' seconds')::interval end,
      15, ${token}, ${prefix} || i, now() + interval '1 day',
      '+573001234567', 'bench@example.com'
    from generate_series(1, ${count}) as i`);
  return { merchantId: merchant };
}
