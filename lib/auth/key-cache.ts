import type { Database, Db } from '@/db/client';
import type { ApiVersion } from '@/lib/api-versions';
import { notifyChannel } from '@/db/queries/api-keys';
import { randomBase62 } from '@/lib/ids';
import { errorFields, log } from '@/lib/log';

// Performance (docs/performance.md#api-key-cache): keys this process authenticated, so a merchant
// request makes one database round trip instead of two. PostgreSQL announces every change that
// can turn a key away on KEY_CHANGES_CHANNEL, which empties the cache; the cache is used only
// within TRUST_FOR_MS of the last beat this process sent itself on that channel and heard back.

export const KEY_CHANGES_CHANNEL = 'servicepay_api_key_changes';

/** What authentication needs of a key that authenticated; nothing else is kept. */
export interface CachedKey {
  merchantId: string;
  secretHash: string;
  readOnly: boolean;
  /** The merchant's pinned API version (docs/api.md#versioning); a change of it is announced. */
  apiVersion: ApiVersion;
}

/** A beat is sent at most this often, and only while keys are looked up. */
const BEAT_EVERY_MS = 1_000;
/** How long after a returned beat was sent the cache may be used: the most a lost listen can hide a change. */
export const TRUST_FOR_MS = 3_000;
/** Keys kept at most; the oldest goes first. */
const MAX_KEYS = 50_000;
/** After a failed LISTEN, the next try waits this long; a beat not back after as long listens anew. */
const RETRY_LISTEN_MS = 10_000;

export class KeyCache {
  private readonly keys = new Map<string, CachedKey>();
  /** Bumped by every forgetting: a lookup that started under an older one is not kept. */
  private generation = 0;
  private trustedUntil = 0;
  private lastBeat = -Infinity;
  private heardBeats = 0;
  private listening: 'no' | 'starting' | 'yes' = 'no';
  private listenFailedAt = -Infinity;
  private unlisten?: () => Promise<void>;
  /** When the oldest beat sent since the last one came back was sent. */
  private unheardSince?: number;
  private readonly beatPrefix = `beat:${randomBase62(16)}:`;

  constructor(
    private readonly database: Pick<Database, 'db' | 'listen'>,
    /** Monotonic: the beats compare times of this process only. */
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The key as it last authenticated, while announcements are known to arrive; else undefined. */
  get(key: string): CachedKey | undefined {
    const now = this.now();
    this.keepInformed(now);
    // Not trusted now: kept, not used, until a beat comes back after every earlier announcement.
    return now < this.trustedUntil ? this.keys.get(key) : undefined;
  }

  /** A ticket for remember(): taken before the database is read. */
  ticket(): number {
    return this.generation;
  }

  /** Keeps a key that just authenticated from the database, unless something was forgotten since `ticket`. */
  remember(key: string, value: CachedKey, ticket: number): void {
    if (ticket !== this.generation || this.now() >= this.trustedUntil) return;
    if (this.keys.size >= MAX_KEYS) this.keys.delete(this.keys.keys().next().value!);
    this.keys.set(key, value);
  }

  forget(): void {
    this.generation++;
    this.keys.clear();
  }

  get size(): number {
    return this.keys.size;
  }

  /** Whether announcements are known to arrive now, so what is held may be used. */
  get trusted(): boolean {
    return this.now() < this.trustedUntil;
  }

  get beatsHeard(): number {
    return this.heardBeats;
  }

  /** The payload of this cache's beat sent at `sentAt`. */
  beatPayload(sentAt: number): string {
    return this.beatPrefix + String(Math.floor(sentAt));
  }

  private keepInformed(now: number): void {
    if (this.listening === 'no' && now - this.listenFailedAt >= RETRY_LISTEN_MS) this.listen();
    // A listen that a lost connection could not make again hears nothing: drop it and listen anew.
    if (this.listening === 'yes' && this.unheardSince !== undefined && now - this.unheardSince >= RETRY_LISTEN_MS) {
      log.warn('no beat of the key cache came back in 10 s: listening for API key changes anew');
      this.unheardSince = undefined;
      this.listening = 'starting';
      void (this.unlisten?.() ?? Promise.resolve()).catch(() => {}).then(() => this.listen());
      return;
    }
    if (this.listening === 'yes' && now - this.lastBeat >= BEAT_EVERY_MS) {
      this.lastBeat = now;
      this.unheardSince ??= now;
      notifyChannel(this.database.db, KEY_CHANGES_CHANNEL, this.beatPayload(now)).catch((error) => log.warn('could not send the key cache its beat', errorFields(error)));
    }
  }

  private listen(): void {
    this.listening = 'starting';
    this.database
      .listen(KEY_CHANGES_CHANNEL, (payload) => this.heard(payload), () => this.forget())
      .then((unlisten) => {
        this.unlisten = unlisten;
        this.listening = 'yes';
      })
      .catch((error) => {
        this.listening = 'no';
        this.listenFailedAt = this.now();
        log.warn('could not listen for API key changes; keys are read from the database on every request', errorFields(error));
      });
  }

  private heard(payload: string): void {
    if (!payload.startsWith('beat:')) return this.forget();
    // Another process's beat says nothing about this process's listen.
    if (!payload.startsWith(this.beatPrefix)) return;
    this.heardBeats++;
    this.unheardSince = undefined;
    this.trustedUntil = Math.max(this.trustedUntil, Number(payload.slice(this.beatPrefix.length)) + TRUST_FOR_MS);
  }
}

// On globalThis, as the database is (db/client.ts): a dev-server reload keeps the cache and its listen.
const holder = globalThis as typeof globalThis & { __servicepayKeyCaches?: WeakMap<Db, KeyCache> };
const caches = (holder.__servicepayKeyCaches ??= new WeakMap());

export function keyCacheOf(database: Pick<Database, 'db' | 'listen'>): KeyCache {
  let cache = caches.get(database.db);
  if (!cache) {
    cache = new KeyCache(database);
    caches.set(database.db, cache);
  }
  return cache;
}

/** Empties this process's cache of `db` at once, after a change that can turn a key away was committed. */
export function forgetApiKeys(db: Db): void {
  caches.get(db)?.forget();
}
