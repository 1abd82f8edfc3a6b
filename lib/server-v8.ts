import v8 from 'node:v8';

// Performance (docs/performance.md): the V8 memory-reducer flag.

/**
 * V8 settings of a server process, set at its start-up by instrumentation.ts
 * (docs/operations.md#memory). When a server goes quiet, V8's memory reducer collects its heap,
 * and by default does it in a mode that also throws away compiled code and shrinks the young
 * generation; the next burst of requests then ran interpreted and re-optimised some 700 functions,
 * at about a third more CPU per request for several seconds (docs/benchmarks.md). Without that
 * mode the reducer still collects the heap when the server is idle, and keeps the compiled code.
 */
export const SERVER_V8_FLAGS = ['--no-memory-reducer-favors-memory'] as const;

/** Sets SERVER_V8_FLAGS in this process (read by V8 at each collection, so setting them after start-up takes effect). */
export function applyServerV8Flags(): void {
  for (const flag of SERVER_V8_FLAGS) v8.setFlagsFromString(flag);
}
