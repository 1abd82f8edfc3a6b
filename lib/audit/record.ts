import type { Db } from '@/db/client';
import { insertAuditEntry } from '@/db/queries/audit';
import type { AUDIT_ACTOR_TYPES } from '@/db/schema';

// Recording a change in the audit log (docs/portal.md#audit-log). The caller passes its own
// transaction, so the entry and the change commit or roll back together; secrets never reach the
// row: a field whose name says it holds one is masked before it is written.

export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

export interface AuditActor {
  type: AuditActorType;
  /** A user id, an API key's public part, `operator`, or a job's name. */
  id: string;
  /** What the portal shows: the user's e-mail, the key, "operator". */
  label: string;
  /** The client's address, when the change came over HTTP. */
  ip: string | null;
}

/** The operator API's actor (one shared token, so one actor). */
export const operatorActor = (ip: string | null): AuditActor => ({ type: 'operator', id: 'operator', label: 'operator', ip });

export interface AuditEntry {
  merchantId: string;
  actor: AuditActor;
  /** `<area>.<verb>`: `webhook.url_changed`, `api_key.created`, `member.invited`, … */
  action: string;
  /** What was acted on when it is not the merchant itself: a key, a plan, a member's e-mail. */
  target?: string | null;
  /** Field by field; see `changesBetween` for the usual `{ from, to }`. */
  changes?: Record<string, unknown>;
}

// Names of fields that hold a secret: their values are masked wherever they appear.
const SECRET_FIELD = /secret|password|private|token|integrity|events_?key|credential|certificate/i;

/** A secret shown as what lets a person tell two apart, never enough to use: its last 4 characters when long. */
export function maskSecret(value: unknown): unknown {
  if (value === null || value === undefined) return value ?? null;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length >= 16 ? `••••${text.slice(-4)}` : '••••';
}

/** `changes` with every value under a secret's name masked, at any depth. */
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

/** The fields of `after` whose value differs from `before`, as `{ field: { from, to } }`. */
export function changesBetween<T extends Record<string, unknown>>(before: Partial<T>, after: Partial<T>): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const key of Object.keys(after)) {
    const from = before[key] ?? null;
    const to = after[key] ?? null;
    if (JSON.stringify(from) !== JSON.stringify(to)) out[key] = { from, to };
  }
  return out;
}

/** Writes one audit entry in `tx`, the change's own transaction, secrets masked. */
export async function recordAudit(tx: Db, entry: AuditEntry): Promise<void> {
  await insertAuditEntry(tx, {
    merchantId: entry.merchantId,
    actorType: entry.actor.type,
    actorId: entry.actor.id,
    actorLabel: entry.actor.label,
    ip: entry.actor.ip,
    action: entry.action,
    target: entry.target ?? null,
    changes: maskSecrets(entry.changes ?? {}),
  });
}
