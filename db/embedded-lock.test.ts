import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedDatabaseInUseError, lockDataDir } from './embedded-lock';

const run = promisify(execFile);
const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-lock-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A second process (as `npm run merchant:create` or a second `next dev` would be) tries the lock. */
async function lockFromAnotherProcess(dir: string) {
  const script = `const { lockDataDir } = require(${JSON.stringify(path.resolve('db/embedded-lock.ts'))});
    try { lockDataDir(${JSON.stringify(dir)}); console.log('locked'); } catch (e) { console.log(e.name + ': ' + e.message); }`;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '-e', script]);
  return stdout.trim();
}

describe('lockDataDir', () => {
  it('stops a second process with a clear message while the first holds the directory', async () => {
    const dir = tempDir();
    const release = lockDataDir(dir);
    const answer = await lockFromAnotherProcess(dir);
    expect(answer).toContain('EmbeddedDatabaseInUseError');
    expect(answer).toContain(`pid ${process.pid}`);
    expect(answer).toContain('DATABASE_URL');
    release();
    expect(await lockFromAnotherProcess(dir)).toBe('locked');
  });

  it('takes over a lock whose owner died', () => {
    const dir = tempDir();
    // A pid far above any running process stands for an owner that crashed.
    fs.writeFileSync(path.join(dir, 'servicepay.lock'), '2147483646');
    const release = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, 'servicepay.lock'), 'utf8')).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dir, 'servicepay.lock'))).toBe(false);
  });

  it('refuses a directory held by another live process', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'servicepay.lock'), String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(EmbeddedDatabaseInUseError);
  });
});
