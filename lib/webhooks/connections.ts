import https from 'node:https';
import type { LookupFunction } from './address-guard';

// Performance (docs/performance.md): kept-alive webhook connections, one https.Agent per receiver
// origin and guard mode. Sockets in use are not capped (a queued POST would eat its 10 s), idle
// ones are few and close first, and only MAX_ORIGINS agents are remembered.

export const MAX_IDLE_SOCKETS_PER_ORIGIN = 10;
const IDLE_SOCKET_MS = 4_000;
const MAX_ORIGINS = 500;

type Pool = Map<string, https.Agent>;

const pools: Pool = new Map();
const stubbedPools = new WeakMap<LookupFunction, Pool>();
let reuse = true;

/** Turns reuse off (a fresh connection per POST, as before pooling) or on; the benchmark compares both in one run. */
export function setConnectionReuse(enabled: boolean): void {
  reuse = enabled;
  if (!enabled) closeIdleConnections();
}

/** Closes every pooled socket (tests and shutdown); POSTs under way keep theirs. */
export function closeIdleConnections(): void {
  for (const agent of pools.values()) agent.destroy();
  pools.clear();
}

/** The agent for a POST to `url`; guarded and unguarded sockets are never shared. */
export function agentFor(url: URL, options: { guarded: boolean; resolve?: LookupFunction }): https.Agent | undefined {
  if (!reuse) return undefined;
  let pool = pools;
  if (options.resolve) {
    pool = stubbedPools.get(options.resolve) ?? new Map();
    stubbedPools.set(options.resolve, pool);
  }
  const key = `${options.guarded ? 'guarded' : 'open'} ${url.origin}`;
  let agent = pool.get(key);
  if (agent) {
    // Most recently used last, so the first entry is the one to forget.
    pool.delete(key);
  } else {
    agent = new https.Agent({ keepAlive: true, maxFreeSockets: MAX_IDLE_SOCKETS_PER_ORIGIN, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' });
    if (pool.size >= MAX_ORIGINS) pool.delete(pool.keys().next().value!);
  }
  pool.set(key, agent);
  return agent;
}
