import type { Db } from '@/db/client';
import { type AuditInsert, insertAuditEntry } from '@/db/queries/audit';
import type { AUDIT_ACTOR_TYPES } from '@/db/schema';

// An audit log entry in the change's own transaction, so both commit or roll back together.
// A field whose name says it holds a secret is masked before it is written.

export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

export interface AuditActor {
  type: AuditActorType;
  /** A user id, an API key's public part, `operator`, or a job's name. */
  id: string;
  label: string;
  ip: string | null;
}

export const operatorActor = (ip: string | null): AuditActor => ({ type: 'operator', id: 'operator', label: 'operator', ip });

export interface AuditEntry {
  merchantId: string;
  actor: AuditActor;
  /** `webhook.url_changed`, `api_key.created`, `member.invited`, … */
  action: string;
  /** When it is not the merchant itself. */
  target?: string | null;
  changes?: Record<string, unknown>;
}

const SECRET_FIELD = /secret|password|private|token|integrity|events_?key|credential|certificate/i;

/** Its last 4 characters when long: enough to tell two apart, never to use. */
export function maskSecret(value: unknown): unknown {
  if (value === null || value === undefined) return value ?? null;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length >= 16 ? `••••${text.slice(-4)}` : '••••';
}

export function maskSecrets(changes: Record<string, unknown>): Record<string, unknown> {
  const walk = (value: unknown, secret: boolean): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v, secret));
    if (value && typeof value === 'object' && !(value instanceof Date)) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v, secret || SECRET_FIELD.test(k))]));
    }
    if (secret) return maskSecret(value);
    return value instanceof Date ? value.toISOString() : (value ?? null);
  };
  return walk(changes, false) as Record<string, unknown>;
}

/** `{ field: { from, to } }` of what changed. */
export function changesBetween<T extends Record<string, unknown>>(before: Partial<T>, after: Partial<T>): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const key of Object.keys(after)) {
    const from = before[key] ?? null;
    const to = after[key] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) out[key] = { from, to };
  }
  return out;
}

/** The row an entry is written as, its secrets masked: recordAudit's, or a statement's that carries it. */
export function auditRow(entry: AuditEntry): AuditInsert {
  return {
    merchantId: entry.merchantId,
    actorType: entry.actor.type,
    actorId: entry.actor.id,
    actorLabel: entry.actor.label,
    ip: entry.actor.ip,
    action: entry.action,
    target: entry.target ?? null,
    changes: maskSecrets(entry.changes ?? {}),
  };
}

export async function recordAudit(tx: Db, entry: AuditEntry): Promise<void> {
  await insertAuditEntry(tx, auditRow(entry));
}
