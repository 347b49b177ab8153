/**
 * Install hygiene: the committed package-lock.json is a fixed point of `npm install`, so a fresh clone stays
 * clean after `make test` or `make run`. npm records every platform's optional binaries of a dependency
 * (msgpackr-extract, for one); a lockfile written without them is rewritten by the first install.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { projectRoot } from '../http/project-root.js';

const run = promisify(execFile);

test('npm install leaves the committed lockfile unchanged', async () => {
  const root = projectRoot(import.meta.url);
  const dir = mkdtempSync(join(tmpdir(), 'lockfile-'));
  try {
    copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
    copyFileSync(join(root, 'package-lock.json'), join(dir, 'package-lock.json'));
    const before = readFileSync(join(dir, 'package-lock.json'), 'utf8');
    // Why --package-lock-only: npm resolves the tree exactly as a full install does and writes the lockfile it
    // would write, without downloading the packages (the registry's metadata is enough).
    await run('npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: dir, timeout: 120_000 });
    const after = readFileSync(join(dir, 'package-lock.json'), 'utf8');
    if (after !== before) {
      const b = before.split('\n');
      const a = after.split('\n');
      const i = b.findIndex((l, k) => l !== a[k]);
      assert.fail(`npm install rewrites package-lock.json (${b.length} -> ${a.length} lines; first difference at line ${i + 1}: ${JSON.stringify(a[i])})`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
