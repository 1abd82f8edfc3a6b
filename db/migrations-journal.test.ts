import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// drizzle's migrator applies only migrations dated after the last one a database has applied, so
// a migration dated before an earlier one would be skipped for ever on an upgraded database
// (docs/operations.md#deployments).
describe('the migrations journal', () => {
  const journal = JSON.parse(fs.readFileSync(path.join(__dirname, 'migrations/meta/_journal.json'), 'utf8')) as {
    entries: { idx: number; when: number; tag: string }[];
  };

  it('dates every migration after the one before it, in the order of their numbers', () => {
    const out = journal.entries.filter((entry, i) => i > 0 && entry.when <= journal.entries[i - 1]!.when).map((e) => e.tag);
    expect(out).toEqual([]);
    expect(journal.entries.map((e) => e.idx)).toEqual(journal.entries.map((_, i) => i));
    expect(journal.entries.map((e) => Number(e.tag.slice(0, 4)))).toEqual(journal.entries.map((_, i) => i));
  });
});
