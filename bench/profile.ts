// Reads a V8 .cpuprofile (node --cpu-prof) and says where the time went: self time per owner
// (our code, Next.js, each library, Node itself) and the top functions. Next's server chunks are
// minified; their source maps (.js.map beside each chunk) name the original file and function.
import fs from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The command-line options of a bench that profiles: the profile runs when an aim is missed;
 * --profile forces it, --no-profile skips it.
 */
export const PROFILE_OPTIONS = {
  'profile-seconds': { type: 'string', default: '8' },
  profile: { type: 'boolean' },
  'no-profile': { type: 'boolean' },
} as const;

export const wantsProfile = (args: { profile?: boolean; 'no-profile'?: boolean }, missed: boolean): boolean => (missed || args.profile === true) && !args['no-profile'];

/** The main thread's profile a server wrote into `dir`: the largest (tsx adds a small one for its loader thread). */
export function mainThreadProfile(dir: string): string {
  const [file] = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => path.join(dir, f))
    .sort((a, b) => fs.statSync(b).size - fs.statSync(a).size);
  if (!file) throw new Error(`no CPU profile written in ${dir}`);
  return file;
}

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame }[];
  samples: number[];
  timeDeltas: number[];
}

export interface FunctionTime {
  owner: string;
  name: string;
  where: string;
  selfMs: number;
}

export interface ProfileSummary {
  totalMs: number;
  /** CPU time, i.e. the profile minus (idle). */
  busyMs: number;
  byOwner: { owner: string; selfMs: number }[];
  functions: FunctionTime[];
}

const maps = new Map<string, SourceMap | null>();

function sourceMapOf(file: string): SourceMap | null {
  if (!maps.has(file)) {
    let map: SourceMap | null = null;
    try {
      map = new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')));
    } catch {
      map = null;
    }
    maps.set(file, map);
  }
  return maps.get(file)!;
}

/** A source path from a chunk's map, relative to the project: `lib/log.ts`, `node_modules/zod/…`. */
function projectPath(source: string, root: string): string {
  return source
    .replace(/^turbopack:\/\/\/\[project\]\//, '')
    .replace(`${root}/`, '')
    .replace(/^(\.\.\/)+/, '')
    // drizzle-orm publishes maps that point at a ../src it does not ship; chained by Turbopack
    // they come out as node_modules/src/….
    .replace(/^node_modules\/src\//, 'node_modules/drizzle-orm/src/');
}

/** The library a path belongs to: `next`, `drizzle-orm`, `@scope/pkg`, or undefined. */
function packageOf(path: string): string | undefined {
  return /node_modules\/((?:(?:@|%40)[^/]+\/)?[^/]+)/.exec(path)?.[1]?.replace('%40', '@');
}

function locate(frame: CallFrame, root: string): Omit<FunctionTime, 'selfMs'> {
  let name = frame.functionName || '(anonymous)';
  if (!frame.url) return { owner: /^\((idle|program|garbage collector)\)$/.test(name) ? name : 'native (V8, Node C++)', name, where: '' };
  if (frame.url.startsWith('node:')) return { owner: 'node (JS internals)', name, where: frame.url };
  const file = frame.url.startsWith('file:') ? fileURLToPath(frame.url) : frame.url;
  let source = projectPath(file, root);
  // Lines only where they mean something: mapped through a chunk's map, or plain JavaScript (tsx
  // keeps its own maps, so a .ts file's generated line is not the source line).
  let line = /\.[cm]?js$/.test(file) ? `:${frame.lineNumber + 1}` : '';
  if (file.includes('/.next/')) {
    const entry = sourceMapOf(file)?.findEntry(frame.lineNumber, frame.columnNumber);
    if (entry && 'originalSource' in entry) {
      source = projectPath(entry.originalSource, root);
      line = `:${entry.originalLine + 1}`;
      // The minified name is useless; the map may know the original one.
      if ('name' in entry && typeof entry.name === 'string') name = entry.name;
    }
  }
  if (source.startsWith('turbopack:///[turbopack]')) {
    return { owner: 'next (Turbopack runtime)', name, where: source.replace('turbopack:///[turbopack]/', '') + line };
  }
  const pkg = packageOf(source);
  if (pkg) return { owner: pkg, name, where: `${source.slice(source.indexOf('node_modules/') + 13)}${line}` };
  if (/^(app|lib|db|bench)\/|^instrumentation\.ts$/.test(source)) return { owner: 'ours', name, where: source + line };
  return { owner: 'other', name, where: source + line };
}

export function summarizeProfile(file: string, root: string = process.cwd()): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

  const functions = new Map<string, FunctionTime>();
  for (const [id, us] of selfUs) {
    const place = locate(frames.get(id)!, root);
    const key = `${place.owner}|${place.name}|${place.where}`;
    const entry = functions.get(key) ?? { ...place, selfMs: 0 };
    entry.selfMs += us / 1000;
    functions.set(key, entry);
  }
  const all = [...functions.values()].sort((a, b) => b.selfMs - a.selfMs);
  const owners = new Map<string, number>();
  for (const f of all) owners.set(f.owner, (owners.get(f.owner) ?? 0) + f.selfMs);
  const totalMs = all.reduce((sum, f) => sum + f.selfMs, 0);
  return {
    totalMs,
    busyMs: totalMs - (owners.get('(idle)') ?? 0),
    byOwner: [...owners].map(([owner, selfMs]) => ({ owner, selfMs })).sort((a, b) => b.selfMs - a.selfMs),
    functions: all,
  };
}

// `npx tsx bench/profile.ts <file.cpuprofile>`: the summary of one profile.
if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) {
  const summary = summarizeProfile(process.argv[2]!);
  console.log(`busy ${summary.busyMs.toFixed(0)} ms of ${summary.totalMs.toFixed(0)} ms`);
  for (const o of summary.byOwner.slice(0, 15)) console.log(`${o.selfMs.toFixed(0).padStart(8)} ms  ${o.owner}`);
  console.log('');
  for (const f of summary.functions.filter((x) => x.owner === 'ours').slice(0, 15)) {
    console.log(`${f.selfMs.toFixed(1).padStart(8)} ms  ${f.name}  ${f.where}`);
  }
}
