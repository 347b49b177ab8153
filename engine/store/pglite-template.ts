/**
 * A fresh PGlite data directory without initdb: the cluster initdb would make is shipped, made once by the pinned
 * PGlite (`scripts/make-pglite-template.ts`), as `pglite-template/pgdata-<pglite version>.tar.br`, and unpacked
 * into a new directory in about 0.2 s. PGlite's own first start runs initdb in a second PGlite instance and copies
 * its result through an in-memory tar: 5-6 s and 800+ MB of peak RSS (bench/README.md, "Embedded store
 * footprint"). The archive is used only by the PGlite version that made it; with another one (an upgrade before
 * the archive is remade), directories are initialized by PGlite as before, and `pglite-template.test.ts` fails.
 */
import { createReadStream, existsSync, readdirSync, readFileSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { createBrotliDecompress } from 'node:zlib';
import { projectRoot } from './project-root.js';
import { extractUstar } from './ustar.js';

/** The version of the installed `@electric-sql/pglite` (read from its package.json). */
export function installedPgliteVersion(): string {
  // Why not `require('@electric-sql/pglite/package.json')`: the package's `exports` do not list it.
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  let dir = dirname(entry);
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Where the template made by PGlite `version` lives (it may not exist). */
export function templateFile(version: string = installedPgliteVersion()): string {
  return join(projectRoot(), 'engine', 'store', 'pglite-template', `pgdata-${version}.tar.br`);
}

/** True when `dir` holds a PostgreSQL cluster (PGlite's own test: `PG_VERSION` exists). */
export function hasCluster(dir: string): boolean {
  return existsSync(join(dir, 'PG_VERSION'));
}

function unpacked(template: string): AsyncIterable<Buffer> {
  const file = createReadStream(template);
  // Why 256 KB chunks: with zlib's default 16 KB, the 40 MB come out in 2,500 thread-pool round trips (320 ms
  // measured, against 75 ms).
  const out = createBrotliDecompress({ chunkSize: 256 * 1024 });
  file.on('error', (e) => out.destroy(e)); // pipe() does not forward a read error
  return file.pipe(out);
}

/** What {@link seedDataDir} did. */
export type SeedOutcome = 'seeded' | 'exists' | 'not-empty' | 'no-template';

/**
 * Unpacks the template into `dir` when `dir` is missing or empty; the caller holds the directory's lock. The
 * archive goes to a sibling `<dir>.seed-<pid>` first and is renamed into place whole, so a process killed while
 * unpacking leaves no half cluster that a later start would take for a database (stale siblings are removed).
 */
export async function seedDataDir(dir: string, template: string = templateFile()): Promise<SeedOutcome> {
  if (hasCluster(dir)) return 'exists';
  if (existsSync(dir) && readdirSync(dir).length > 0) return 'not-empty';
  if (!existsSync(template)) return 'no-template';
  const parent = dirname(dir);
  const stalePrefix = `${basename(dir)}.seed-`;
  for (const name of readdirSync(parent)) {
    if (name.startsWith(stalePrefix)) rmSync(join(parent, name), { recursive: true, force: true });
  }
  const staging = join(parent, `${stalePrefix}${process.pid}`);
  try {
    await extractUstar(unpacked(template), staging);
    if (existsSync(dir)) rmdirSync(dir); // empty (checked above); rename needs the name free
    renameSync(staging, dir);
  } catch (e) {
    rmSync(staging, { recursive: true, force: true });
    throw e;
  }
  return 'seeded';
}

/** The template as one uncompressed tar (for PGlite's `loadDataDir`, used by `memory://`), or null without one. */
export async function templateTar(template: string = templateFile()): Promise<Buffer | null> {
  if (!existsSync(template)) return null;
  const parts: Buffer[] = [];
  for await (const c of unpacked(template)) parts.push(c);
  return Buffer.concat(parts);
}
