import https from 'node:https';
import type { LookupFunction } from './address-guard';

// Kept-alive webhook connections, one agent per receiver origin and guard mode: sockets in use
// uncapped (a queued POST would eat its 10 s), few idle ones, at most MAX_ORIGINS agents.

export const MAX_IDLE_SOCKETS_PER_ORIGIN = 10;
const IDLE_SOCKET_MS = 4_000;
const MAX_ORIGINS = 500;

type Pool = Map<string, https.Agent>;

const pools: Pool = new Map();
const stubbedPools = new WeakMap<LookupFunction, Pool>();
let reuse = true;

/** Pooling off or on; the benchmark compares both. */
export function setConnectionReuse(enabled: boolean): void {
  reuse = enabled;
  if (!enabled) closeIdleConnections();
}

/** POSTs under way keep their sockets. */
export function closeIdleConnections(): void {
  for (const agent of pools.values()) agent.destroy();
  pools.clear();
}

/** Guarded and unguarded sockets are never shared. */
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
    pool.delete(key);
  } else {
    agent = new https.Agent({ keepAlive: true, maxFreeSockets: MAX_IDLE_SOCKETS_PER_ORIGIN, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' });
    if (pool.size >= MAX_ORIGINS) pool.delete(pool.keys().next().value!);
  }
  pool.set(key, agent);
  return agent;
}
