import fs from 'node:fs';
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
const isTest = (file: string) => /\.test\.tsx?$/.test(file);

/** The layer of a file, top to bottom; an import may only point to its own layer or one below. */
const LAYERS = ['app', 'components', 'lib', 'db'] as const;
const layerOf = (file: string) => LAYERS.indexOf(file.split('/')[0] as (typeof LAYERS)[number]);

/**
 * The only imports of lib from db: the settings the client connects with, and the names the
 * schema's check constraints are built from, each defined once beside the code that gives them
 * meaning (the webhook payload, the billing interval). Each is a leaf of lib: it imports nothing
 * that reaches db.
 */
const DB_READS_FROM_LIB = [
  'db/client.ts -> lib/env.ts',
  'db/schema.ts -> lib/calendar/interval.ts',
  'db/schema.ts -> lib/webhooks/payload.ts',
  'db/schema.ts -> lib/api-versions.ts',
];

/** The folder of lib a file belongs to (`lib/webhooks`); a file at lib's root is its own. */
const libFolderOf = (file: string) => (file.split('/').length > 2 ? file.split('/').slice(0, 2).join('/') : file);

/** The edges between lib's folders, each with one import that makes it (`from -> to` => example). */
function libFolderEdges(graph: Tree): Map<string, Map<string, string>> {
  const edges = new Map<string, Map<string, string>>();
  for (const [file, deps] of Object.entries(graph)) {
    if (!file.startsWith('lib/') || isTest(file)) continue;
    for (const dep of deps ?? []) {
      if (!dep.id?.startsWith('lib/')) continue;
      const [from, to] = [libFolderOf(file), libFolderOf(dep.id)];
      if (from === to) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      if (!edges.get(from)!.has(to)) edges.get(from)!.set(to, `${file} -> ${dep.id}`);
    }
  }
  return edges;
}

/** docs/architecture.md's order of lib: each folder or root file named, with its line (0 the top). */
function libOrderOf(page: string): Map<string, number> {
  const block = /Inside lib, from the top down:\s*```\n([\s\S]*?)```/.exec(page)?.[1] ?? '';
  const order = new Map<string, number>();
  block
    .split('\n')
    .filter((line) => line.trim())
    .forEach((line, rank) => {
      for (const name of line.split(/\s{2,}/)[0]!.split(/,\s*/)) order.set(name.trim(), rank);
    });
  return order;
}

/** Imports between lib's listed folders and files that do not point to a line below their own. */
function upwardInLib(graph: Tree, order: Map<string, number>): string[] {
  const unitOf = (file: string) => file.split('/')[1]!;
  return Object.entries(graph)
    .filter(([file]) => file.startsWith('lib/') && !isTest(file))
    .flatMap(([file, deps]) =>
      (deps ?? [])
        .filter((d) => d.id?.startsWith('lib/') && unitOf(d.id) !== unitOf(file))
        .filter((d) => order.has(unitOf(file)) && order.has(unitOf(d.id!)) && order.get(unitOf(d.id!))! <= order.get(unitOf(file))!)
        .map((d) => `${file} -> ${d.id}`),
    );
}

/** Pairs and longer circles of lib folders that reach each other, each named by its imports. */
function libFolderCycles(graph: Tree): string[] {
  const edges = libFolderEdges(graph);
  const cycles: string[] = [];
  const seen = new Set<string>();
  // Each strongly connected group of folders (Tarjan), reported with one circle through it.
  let index = 0;
  const indexOf = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const visit = (v: string) => {
    indexOf.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
      if (!indexOf.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indexOf.get(w)!));
    }
    if (low.get(v) === indexOf.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) {
        const members = new Set(group);
        const imports = group.flatMap((from) => [...(edges.get(from) ?? [])].filter(([to]) => members.has(to)).map(([, example]) => example)).sort();
        const key = group.sort().join(' <-> ');
        if (!seen.has(key)) cycles.push(`${key}: ${imports.join('; ')}`);
        seen.add(key);
      }
    }
  };
  for (const v of edges.keys()) if (!indexOf.has(v)) visit(v);
  return cycles;
}

describe('import graph', () => {
  it('parses the whole app (the check reads what it should)', () => {
    const files = Object.keys(tree).filter(ours);
    expect(files.length).toBeGreaterThan(150);
    expect(files).toEqual(expect.arrayContaining(['lib/unit-of-work.ts', 'lib/openapi/examples.ts', 'app/merchants/subscription-link/route.ts']));
  });

  it('has no import cycle', () => {
    expect(parseCircular(tree).map((cycle) => cycle.join(' -> '))).toEqual([]);
  });

  it('has no cycle between folders of lib: every import between them points down', () => {
    expect(libFolderCycles(tree)).toEqual([]);
  });

  it('detects a cycle between folders of lib when there is one, not within a folder', () => {
    const edge = (issuer: string, id: string) => ({ issuer, request: id, kind: 0 as never, id });
    const graph: Tree = {
      'lib/a/x.ts': [edge('lib/a/x.ts', 'lib/b/y.ts'), edge('lib/a/x.ts', 'lib/a/z.ts')],
      'lib/a/z.ts': [edge('lib/a/z.ts', 'lib/a/x.ts')],
      'lib/b/y.ts': [edge('lib/b/y.ts', 'lib/c.ts')],
      'lib/c.ts': [edge('lib/c.ts', 'lib/a/z.ts')],
    };
    expect(libFolderCycles(graph)).toEqual(['lib/a <-> lib/b <-> lib/c.ts: lib/a/x.ts -> lib/b/y.ts; lib/b/y.ts -> lib/c.ts; lib/c.ts -> lib/a/z.ts']);
    delete graph['lib/c.ts'];
    expect(libFolderCycles(graph)).toEqual([]);
  });

  it('points every import down: app -> components -> lib -> db, never up', () => {
    const upward = Object.entries(tree)
      .filter(([file]) => layerOf(file) >= 0 && !isTest(file))
      .flatMap(([file, deps]) => (deps ?? []).filter((d) => d.id && layerOf(d.id) >= 0 && layerOf(d.id) < layerOf(file)).map((d) => `${file} -> ${d.id}`))
      .filter((edge) => !DB_READS_FROM_LIB.includes(edge));
    expect(upward).toEqual([]);
  });

  it("follows docs/architecture.md's order of lib: each line imports only from lines below it", () => {
    const order = libOrderOf(fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8'));
    expect(order.size).toBeGreaterThan(25);
    expect(upwardInLib(tree, order)).toEqual([]);
  });

  it('reads the order of lib from the page, and tells an import that points up it', () => {
    const order = libOrderOf('Inside lib, from the top down:\n\n```\nplans, merchants      links\nsettlement            charges\nids.ts\n```\n');
    expect([...order]).toEqual([['plans', 0], ['merchants', 0], ['settlement', 1], ['ids.ts', 2]]);
    const edge = (issuer: string, id: string) => ({ issuer, request: id, kind: 0 as never, id });
    const graph: Tree = {
      'lib/plans/a.ts': [edge('lib/plans/a.ts', 'lib/settlement/b.ts'), edge('lib/plans/a.ts', 'lib/merchants/c.ts')],
      'lib/settlement/b.ts': [edge('lib/settlement/b.ts', 'lib/ids.ts'), edge('lib/settlement/b.ts', 'lib/plans/a.ts')],
    };
    expect(upwardInLib(graph, order)).toEqual(['lib/plans/a.ts -> lib/merchants/c.ts', 'lib/settlement/b.ts -> lib/plans/a.ts']);
  });

  it('keeps SQL in db/: nothing else of the app imports drizzle-orm', () => {
    const outside = Object.entries(tree)
      .filter(([file]) => /^(app|components|lib)\//.test(file) && !isTest(file))
      .flatMap(([file, deps]) => (deps ?? []).filter((d) => d.request === 'drizzle-orm' || d.request.startsWith('drizzle-orm/')).map(() => file));
    expect(outside).toEqual([]);
  });

  it('keeps Vitest out of what runs under tsx: the benchmarks and scripts (importing it there throws)', () => {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const dep of tree[file] ?? []) if (dep.id && ours(dep.id)) visit(dep.id);
    };
    Object.keys(tree)
      .filter((file) => /^(bench|scripts)\//.test(file) && !isTest(file))
      .forEach(visit);
    const reaching = [...seen].filter((file) => (tree[file] ?? []).some((d) => d.request === 'vitest' || d.request.startsWith('vitest/')));
    expect(seen.size).toBeGreaterThan(20);
    expect(reaching).toEqual([]);
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
