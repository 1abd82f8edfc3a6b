import https from 'node:https';
import type { LookupFunction } from './address-guard';

// Performance (docs/performance.md): kept-alive webhook connections.
// The keep-alive pool behind webhook POSTs (./http.ts): one https.Agent per receiver origin, per
// guard mode, per resolver (tests stub the resolver), each with a bounded number of sockets.
// Bounds, and why:
// - at most MAX_IDLE_SOCKETS_PER_ORIGIN sockets are kept open between POSTs to one origin.
// - the number of sockets IN USE is not capped here: a POST never queues for a socket, since the
//   wait would count against its 10 s limit and many merchants may share one receiver host. It is
//   bounded by delivery's own concurrency (5 per merchant, lib/inngest/functions/send-webhook.ts).
// - idle sockets close after IDLE_SOCKET_MS (under the 5 s keep-alive of common servers, so we
//   close first): a receiver that stops sending never holds ours long.
// - at most MAX_ORIGINS agents are remembered; the oldest is forgotten (its sockets finish their
//   exchange and close when idle), so a long list of merchant URLs cannot grow the map forever.

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

/**
 * The agent for a POST to `url`, or undefined (no reuse: a one-off connection). Sockets opened in
 * guarded mode (the address guard in their lookup) are never lent to an unguarded request, nor
 * the other way round.
 */
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
