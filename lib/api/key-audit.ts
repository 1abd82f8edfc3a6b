import type { Db } from '@/db/client';
import { type AuditEntry, recordAudit } from '@/lib/audit/record';

// Performance (docs/performance.md#the-audit-row-in-the-changes-statement): the audit entry of a
// change made with a merchant's API key. A handler whose change is one statement takes the entry
// into that statement, so it commits with the change at no round trip or commit of its own; for
// any other handler the route writes it after a successful reply.

export class KeyAudit {
  private taken = false;
  private made?: AuditEntry;

  constructor(private readonly make: () => AuditEntry) {}

  private get entry(): AuditEntry {
    return (this.made ??= this.make());
  }

  /** For a statement that writes it with the change; the route then writes none. */
  take(): AuditEntry {
    this.taken = true;
    return this.entry;
  }

  /** After a successful reply whose change did not carry it. */
  async recordUnlessTaken(db: Db): Promise<void> {
    if (!this.taken) await recordAudit(db, this.entry);
  }
}
