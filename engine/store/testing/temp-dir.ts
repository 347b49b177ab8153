/** Temporary directories for tests, under the OS temp folder. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A new empty directory; `remove` deletes it with everything inside (and the PGlite lock file beside it). */
export function tempDir(prefix: string): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), `${prefix}-`));
  return {
    path,
    remove: () => {
      rmSync(path, { recursive: true, force: true });
      rmSync(`${path}.lock`, { force: true });
    },
  };
}
