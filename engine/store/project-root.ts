/** Locates the project root from this module, from sources and from `dist/` alike. */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EngineError } from '../errors.js';

/** The folder holding package.json above this module (works from sources and from `dist/`). */
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new EngineError('STORE_NO_PROJECT_ROOT', `no package.json above ${import.meta.url}`);
    dir = up;
  }
}
