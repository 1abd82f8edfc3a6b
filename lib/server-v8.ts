import v8 from 'node:v8';

// Performance (docs/performance.md): the V8 memory-reducer flag.

/**
 * V8 settings of a server process (docs/operations.md#memory): the memory reducer keeps compiled
 * code, so a burst after a quiet spell is not re-optimised from scratch (docs/benchmarks.md).
 */
export const SERVER_V8_FLAGS = ['--no-memory-reducer-favors-memory'] as const;

/** Sets SERVER_V8_FLAGS in this process (read by V8 at each collection, so setting them after start-up takes effect). */
export function applyServerV8Flags(): void {
  for (const flag of SERVER_V8_FLAGS) v8.setFlagsFromString(flag);
}
