/**
 * Locates the project root (the folder holding package.json) from a module URL, so tests and tools can find
 * files relative to the repository whether they run from `http/` sources or `dist/http/` output.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The nearest ancestor folder of `moduleUrl` that holds a package.json. */
export function projectRoot(moduleUrl: string): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${moduleUrl}`);
    dir = up;
  }
}
