import path from 'node:path';
import { parseCircular, parseDependencyTree } from 'dpdm';
import { beforeAll, describe, expect, it } from 'vitest';

// The module graph of the app's own code: no import cycles (type-only imports included, since a
// type cycle is a design cycle too), and the webhook domain never reaches for a runner. Parsed
// from the source with the project's tsconfig, so `@/` paths resolve as they do for tsc.

const ROOT = path.resolve(__dirname, '..');
const ENTRIES = ['app/**/*.{ts,tsx}', 'lib/**/*.{ts,tsx}', 'db/**/*.ts', 'components/**/*.{ts,tsx}', 'proxy.ts', 'instrumentation.ts', 'scripts/**/*.ts', 'bench/**/*.ts'];

type Tree = Awaited<ReturnType<typeof parseDependencyTree>>;
let tree: Tree;

beforeAll(async () => {
  tree = await parseDependencyTree(ENTRIES, {
    context: ROOT,
    cwd: ROOT,
    tsconfig: path.join(ROOT, 'tsconfig.json'),
    transform: false,
    skipDynamicImports: false,
    exclude: /node_modules/,
  });
}, 120_000);

const ours = (file: string) => !file.includes('node_modules');

describe('import graph', () => {
  it('parses the whole app (the check reads what it should)', () => {
    const files = Object.keys(tree).filter(ours);
    expect(files.length).toBeGreaterThan(150);
    expect(files).toEqual(expect.arrayContaining(['lib/unit-of-work.ts', 'lib/openapi/examples.ts', 'app/merchants/subscription-link/route.ts']));
  });

  it('has no import cycle', () => {
    expect(parseCircular(tree).map((cycle) => cycle.join(' -> '))).toEqual([]);
  });

  it('detects a cycle when there is one', () => {
    const cyclic: Tree = {
      'a.ts': [{ issuer: 'a.ts', request: './b', kind: 0 as never, id: 'b.ts' }],
      'b.ts': [{ issuer: 'b.ts', request: './a', kind: 0 as never, id: 'a.ts' }],
    };
    expect(parseCircular(cyclic)).toHaveLength(1);
  });

  it('keeps the webhook domain free of Inngest: runners are wired at start-up (lib/runners.ts)', () => {
    const offending = Object.entries(tree)
      .filter(([file]) => file.startsWith('lib/webhooks/') && !file.endsWith('.test.ts'))
      .flatMap(([file, deps]) => (deps ?? []).filter((d) => d.id?.startsWith('lib/inngest/') || d.request === 'inngest').map((d) => `${file} -> ${d.request}`));
    expect(offending).toEqual([]);
  });
});
