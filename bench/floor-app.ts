// The framework floor of `npm run bench:api`: a separate, minimal Next.js app (nothing of ours in
// it, not shipped) with one route handler answering the same 401 our API answers without
// credentials. Built in a temporary folder with the project's own Next.js (its node_modules
// linked in), on the same Node, with the same bundler, and started with `next start` beside ours.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createScratchDatabase, ensureBuild } from './setup';

// A route with the same path shape as ours, so routing does the same matching work.
const ROUTE = `// The floor: a trivial route handler, nothing but the 401 reply.
export function GET() {
  return Response.json(
    { error: { code: 'unauthorized', message: 'Missing or malformed credentials', requestId: 'req_floor' } },
    { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } },
  );
}
`;

const LAYOUT = `export default function RootLayout({ children }) {
  return <html lang="en"><body>{children}</body></html>;
}
`;

export interface FloorApp {
  dir: string;
  remove(): void;
}

/**
 * What a bench raced against the floor starts with: its start time and load average, a build of
 * ours that is not stale, the floor app and a scratch database (the floor app removed if the
 * database cannot be made).
 */
export async function startFloorRace() {
  const started = Date.now();
  const loadStart = os.loadavg()[0]!;
  const { built } = ensureBuild();
  const floorApp = buildFloorApp();
  const db = await createScratchDatabase().catch((error: unknown) => {
    floorApp.remove();
    throw error;
  });
  return { started, loadStart, built, floorApp, db };
}

/** Writes and builds the floor app; throws with the build's output when it fails. */
export function buildFloorApp(): FloorApp {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'servicepay-bench-floor-'));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  const routeDir = path.join(dir, 'app', 'merchants', 'plans', '[id]', 'status');
  fs.mkdirSync(routeDir, { recursive: true });
  fs.writeFileSync(path.join(routeDir, 'route.js'), ROUTE);
  fs.writeFileSync(path.join(dir, 'app', 'layout.jsx'), LAYOUT);
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'servicepay-bench-floor', private: true }, null, 2));
  // Turbopack resolves nothing outside its root: the root is the folder both share.
  const root = commonAncestor(dir, process.cwd());
  fs.writeFileSync(
    path.join(dir, 'next.config.mjs'),
    `export default { poweredByHeader: false, turbopack: { root: ${JSON.stringify(root)} }, outputFileTracingRoot: ${JSON.stringify(root)} };\n`,
  );
  fs.symlinkSync(path.resolve('node_modules'), path.join(dir, 'node_modules'), 'dir');
  console.log(`building the framework floor app in ${dir}`);
  const built = spawnSync(process.execPath, [path.resolve('node_modules/next/dist/bin/next'), 'build'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' },
  });
  if (built.status !== 0) {
    remove();
    throw new Error(`building the floor app failed:\n${built.stdout}\n${built.stderr}`);
  }
  return { dir, remove };
}

function commonAncestor(a: string, b: string): string {
  const pa = path.resolve(a).split(path.sep);
  const pb = path.resolve(b).split(path.sep);
  let i = 0;
  while (i < pa.length && i < pb.length && pa[i] === pb[i]) i++;
  return pa.slice(0, i).join(path.sep) || path.sep;
}
