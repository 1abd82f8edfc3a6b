// `npm run build:if-stale`: `npm run build` only when .next/BUILD_ID is missing or older than a
// source file (tests aside). The journeys, the resilience suite and the benchmarks start servers
// on the production build; CI builds once and they all reuse it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// What goes into the build (tests aside); a missing entry is skipped.
const SOURCES = ['app', 'lib', 'db', 'components', 'public', 'instrumentation.ts', 'proxy.ts', 'middleware.ts', 'next.config.ts', 'tsconfig.json', 'package-lock.json'];

function newestSourceMtime(entry: string): number {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(entry) ? 0 : stat.mtimeMs;
  let newest = 0;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestSourceMtime(path.join(entry, child)));
  return newest;
}

export function ensureBuild(): { built: boolean } {
  const buildId = fs.statSync('.next/BUILD_ID', { throwIfNoEntry: false });
  const newest = Math.max(...SOURCES.map(newestSourceMtime));
  if (buildId && buildId.mtimeMs >= newest) return { built: false };
  console.log(buildId ? 'sources changed since the last build: npm run build' : 'no production build: npm run build');
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' } });
  if (result.status !== 0) throw new Error('npm run build failed: fix the build, then run again');
  return { built: true };
}

if (require.main === module) {
  const { built } = ensureBuild();
  console.log(built ? 'production build made' : 'production build is current');
}
