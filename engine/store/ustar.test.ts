import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isEngineError } from '../errors.js';
import { tempDir } from './testing/temp-dir.js';
import { extractUstar, packDirectory } from './ustar.js';

function fill(root: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>([
    ['PG_VERSION', Buffer.from('18\n')],
    ['empty', Buffer.alloc(0)],
    ['base/1/block', Buffer.alloc(512, 7)],
    ['base/1/odd', Buffer.from(Array.from({ length: 513 }, (_, i) => i % 251))],
    ['pg_wal/segment', Buffer.alloc(200_000, 3)],
    [`${'d'.repeat(60)}/${'e'.repeat(60)}/long-name-that-needs-the-ustar-prefix-field`, Buffer.from('long')],
  ]);
  for (const [name, data] of files) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), data);
  }
  mkdirSync(join(root, 'pg_notify'));
  return files;
}

function listFiles(root: string, rel = ''): string[] {
  return readdirSync(join(root, rel)).flatMap((e) => {
    const p = rel === '' ? e : `${rel}/${e}`;
    return statSync(join(root, p)).isDirectory() ? [`${p}/`, ...listFiles(root, p)] : [p];
  });
}

async function* chunked(buf: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

test('ustar: a packed folder extracts to the same files, whatever the chunk sizes', async () => {
  const src = tempDir('ustar-src');
  const out = tempDir('ustar-out');
  try {
    const files = fill(src.path);
    const tar = packDirectory(src.path);
    assert.equal(tar.length % 512, 0);
    assert.deepEqual(packDirectory(src.path), tar, 'the same folder packs to the same bytes');
    for (const size of [1, 7, 511, 512, 4096, 65_536]) {
      const dest = join(out.path, String(size));
      const counts = await extractUstar(chunked(tar, size), dest);
      assert.deepEqual(counts, { files: files.size, dirs: 6, bytes: [...files.values()].reduce((n, b) => n + b.length, 0) });
      assert.deepEqual(listFiles(dest).sort(), listFiles(src.path).sort());
      for (const [name, data] of files) assert.deepEqual(readFileSync(join(dest, name)), data, name);
    }
  } finally {
    src.remove();
    out.remove();
  }
});

test('ustar: GNU tar lists what packDirectory writes', (t) => {
  const probe = spawnSync('tar', ['--version']);
  if (probe.error || probe.status !== 0) return t.skip('no tar on this machine');
  const src = tempDir('ustar-tar');
  try {
    fill(src.path);
    const tarFile = `${src.path}.tar`;
    writeFileSync(tarFile, packDirectory(src.path));
    const r = spawnSync('tar', ['-tf', tarFile], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(r.stdout.trim().split('\n').sort(), listFiles(src.path).sort());
  } finally {
    src.remove();
  }
});

test('ustar: a bad checksum, a truncated archive and an escaping path are refused', async () => {
  const src = tempDir('ustar-bad');
  const out = tempDir('ustar-bad-out');
  try {
    writeFileSync(join(src.path, 'x'), 'data');
    const tar = packDirectory(src.path);

    const flipped = Buffer.from(tar);
    flipped[0] = 'y'.charCodeAt(0);
    await assert.rejects(extractUstar(chunked(flipped, 512), join(out.path, 'a')), (e) => isEngineError(e, 'USTAR_CORRUPT'));

    await assert.rejects(extractUstar(chunked(tar.subarray(0, 1024), 512), join(out.path, 'b')), (e) => isEngineError(e, 'USTAR_CORRUPT'));

    const escaping = Buffer.from(tar);
    escaping.write('../x\0', 0, 'ascii');
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : escaping[i]!;
    escaping.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
    await assert.rejects(extractUstar(chunked(escaping, 512), join(out.path, 'c')), (e) => isEngineError(e, 'USTAR_BAD_PATH'));
    assert.deepEqual(readdirSync(out.path).sort(), ['a', 'b', 'c'].sort());
  } finally {
    src.remove();
    out.remove();
  }
});
