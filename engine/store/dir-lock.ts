/**
 * One process per PGlite data directory. PGlite runs PostgreSQL in single-user mode inside this process and does
 * not stop a second process from opening the same files (checked: both open, and two writers would corrupt the
 * cluster). A lock file beside the directory holds the owner's pid; a lock whose pid is gone (kill -9) is taken
 * over. Best effort against accidental double starts (a second service, the key tool run beside the service),
 * not a distributed lock.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { EngineError } from '../errors.js';

const heldHere = new Set<string>();

function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  // After a container restart the service may get its old pid back: our own pid in a lock we do not hold is stale.
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock of `dataDir` (file `<dataDir>.lock`); the returned function releases it. Throws `STORE_LOCKED`. */
export function lockDataDir(dataDir: string): () => void {
  const path = `${dataDir}.lock`;
  if (heldHere.has(path)) throw new EngineError('STORE_LOCKED', `PGlite data directory ${dataDir} is already open in this process`);
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 2) throw e;
    }
    let owner = NaN;
    try {
      owner = Number(readFileSync(path, 'utf8').trim());
    } catch {
      continue; // removed meanwhile: try again
    }
    if (pidAlive(owner)) {
      throw new EngineError('STORE_LOCKED', `PGlite data directory ${dataDir} is open in process ${owner}`, { pid: owner });
    }
    try {
      unlinkSync(path);
    } catch {
      // another process took it over first; the next attempt tells
    }
  }
  heldHere.add(path);
  return () => {
    if (!heldHere.delete(path)) return;
    try {
      if (readFileSync(path, 'utf8').trim() === String(process.pid)) unlinkSync(path);
    } catch {
      // already gone
    }
  };
}
