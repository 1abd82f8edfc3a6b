import fs from 'node:fs';
import path from 'node:path';

// PGlite has no lock of its own and two writers on one data directory lose data
// (docs/operations.md#running-it), so the directory gets an exclusive lock file holding the owner's pid.

export class EmbeddedDatabaseInUseError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The embedded database in ${dir} is in use by another process (pid ${pid}). ` +
        'Only one process may open it at a time: stop that process (for example a running `npm run dev`), ' +
        'use its HTTP API instead, or set DATABASE_URL to a PostgreSQL server.',
    );
    this.name = 'EmbeddedDatabaseInUseError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock on `dir` for this process, or throws if a live process holds it. Returns a release function. */
export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const lockPath = path.join(dir, 'servicepay.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(lockPath, 'utf8') === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          // Already gone: nothing to release.
        }
      };
      process.once('exit', release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number.parseInt(fs.readFileSync(lockPath, 'utf8'), 10);
      if (owner === process.pid) throw new Error(`The embedded database in ${dir} is already open in this process`);
      if (Number.isInteger(owner) && owner > 0 && isAlive(owner)) throw new EmbeddedDatabaseInUseError(dir, owner);
      // The owner died without releasing (a crash, kill -9): the lock is stale.
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock the embedded database in ${dir}`);
}
