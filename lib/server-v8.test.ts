import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SERVER_V8_FLAGS } from './server-v8';

// v8.setFlagsFromString ignores a flag V8 does not know, silently; Node's command line refuses one.
// A Node upgrade that renames or drops a flag fails here rather than quietly changing nothing.
function nodeWith(flags: readonly string[]) {
  return spawnSync(process.execPath, [...flags, '-e', '0'], { encoding: 'utf8' });
}

describe('SERVER_V8_FLAGS', () => {
  it('are options this Node accepts', () => {
    expect(SERVER_V8_FLAGS.length).toBeGreaterThan(0);
    const run = nodeWith(SERVER_V8_FLAGS);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('the check refuses an option V8 does not know', () => {
    const run = nodeWith(['--no-memory-reducer-favours-memory']);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/bad option/);
  });
});
