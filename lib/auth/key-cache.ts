import type { Database, Db } from '@/db/client';
import type { ApiVersion } from '@/lib/api-versions';
import { notifyChannel } from '@/db/queries/api-keys';
import { randomBase62 } from '@/lib/ids';
import { errorFields, log } from '@/lib/log';

// Keys this process authenticated, so a merchant request makes one round trip instead of two.
// Every change that can turn a key away is announced on KEY_CHANGES_CHANNEL and empties the cache,
// which is used only within TRUST_FOR_MS of the last beat this process heard back on it.

export const KEY_CHANGES_CHANNEL = 'servicepay_api_key_changes';

export interface CachedKey {
  merchantId: string;
  secretHash: string;
  readOnly: boolean;
  /** A change of it is announced. */
  apiVersion: ApiVersion;
}

/** At most this often, only while keys are looked up. */
const BEAT_EVERY_MS = 1_000;
/** The most a lost listen can hide a change. */
export const TRUST_FOR_MS = 3_000;
/** The oldest goes first. */
const MAX_KEYS = 50_000;
/** Also how long a beat may stay out before listening anew. */
const RETRY_LISTEN_MS = 10_000;

export class KeyCache {
  private readonly keys = new Map<string, CachedKey>();
  /** Bumped by every forgetting: an older lookup is not kept. */
  private generation = 0;
  private trustedUntil = 0;
  private lastBeat = -Infinity;
  private heardBeats = 0;
  private listening: 'no' | 'starting' | 'yes' = 'no';
  private listenFailedAt = -Infinity;
  private unlisten?: () => Promise<void>;
  private unheardSince?: number;
  private readonly beatPrefix = `beat:${randomBase62(16)}:`;

  constructor(
    private readonly database: Pick<Database, 'db' | 'listen'>,
    /** Monotonic, this process only. */
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Undefined while announcements are not known to arrive. */
  get(key: string): CachedKey | undefined {
    const now = this.now();
    this.keepInformed(now);
    return now < this.trustedUntil ? this.keys.get(key) : undefined;
  }

  /** Taken before the database is read. */
  ticket(): number {
    return this.generation;
  }

  /** Unless something was forgotten since `ticket`. */
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

  get trusted(): boolean {
    return this.now() < this.trustedUntil;
  }

  get beatsHeard(): number {
    return this.heardBeats;
  }

  beatPayload(sentAt: number): string {
    return this.beatPrefix + String(Math.floor(sentAt));
  }

  private keepInformed(now: number): void {
    if (this.listening === 'no' && now - this.listenFailedAt >= RETRY_LISTEN_MS) this.listen();
    // A listen lost with its connection hears nothing: listen anew.
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
    if (!payload.startsWith(this.beatPrefix)) return;
    this.heardBeats++;
    this.unheardSince = undefined;
    this.trustedUntil = Math.max(this.trustedUntil, Number(payload.slice(this.beatPrefix.length)) + TRUST_FOR_MS);
  }
}

// On globalThis, as the database is: a dev-server reload keeps the cache.
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

/** After a committed change that can turn a key away. */
export function forgetApiKeys(db: Db): void {
  caches.get(db)?.forget();
}
