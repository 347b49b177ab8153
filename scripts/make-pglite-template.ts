/**
 * Makes the PGlite template (`engine/store/pglite-template/pgdata-<version>.tar.br`) with the installed PGlite:
 * PGlite's own first start (initdb) in a temporary directory, a clean shutdown, then the directory packed as ustar
 * and compressed with brotli. Run after every PGlite upgrade (`pglite-template.test.ts` fails until then):
 *
 *   npx tsc -p tsconfig.json && node dist/scripts/make-pglite-template.js
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { pgliteStartParams } from '../engine/store/pglite-settings.js';
import { installedPgliteVersion, templateFile } from '../engine/store/pglite-template.js';
import { packDirectory } from '../engine/store/ustar.js';

async function main(): Promise<void> {
  const version = installedPgliteVersion();
  const tmp = mkdtempSync(join(tmpdir(), 'pglite-template-'));
  try {
    const dir = join(tmp, 'pgdata');
    const db = await PGlite.create(dir, { startParams: pgliteStartParams() });
    await db.close();
    const tar = packDirectory(dir);
    // Why brotli with a 16 MB window: template0, template1 and postgres hold near-identical catalogs that gzip's
    // 32 KB window cannot see across (gzip -9: 4.5 MB; this: 1.3 MB). Node has it built in.
    const packed = brotliCompressSync(tar, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_LGWIN]: 24,
        [constants.BROTLI_PARAM_SIZE_HINT]: tar.length,
      },
    });
    const out = templateFile(version);
    writeFileSync(out, packed);
    process.stdout.write(`${out}: PGlite ${version}, ${tar.length} bytes packed to ${packed.length}\n`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((e: Error) => {
  process.stderr.write(`${e.stack ?? e.message}\n`);
  process.exit(1);
});
