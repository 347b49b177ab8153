/**
 * A minimal ustar archive of regular files and directories: {@link packDirectory} writes one from a folder (the
 * PGlite template is made with it), {@link extractUstar} writes one out into a folder as it streams in, a chunk at
 * a time (the template is 40 MB unpacked; it never sits in memory whole). Other entry types (links, devices, pax
 * headers) are refused: an archive here only ever comes from {@link packDirectory}. `tar -t` lists it.
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { EngineError } from '../errors.js';

const BLOCK = 512;

function octal(header: Buffer, offset: number, width: number, value: number): void {
  // width - 1 octal digits, then NUL (the common ustar form).
  header.write(value.toString(8).padStart(width - 1, '0') + '\0', offset, width, 'ascii');
}

function readOctal(header: Buffer, offset: number, width: number): number {
  const text = header.toString('ascii', offset, offset + width).replace(/[\0 ]+$/, '').trim();
  return text === '' ? 0 : parseInt(text, 8);
}

function checksum(header: Buffer): number {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : header[i]!;
  return sum;
}

function splitName(name: string): { prefix: string; base: string } {
  if (Buffer.byteLength(name) <= 100) return { prefix: '', base: name };
  const cut = name.lastIndexOf('/', name.length - 2);
  const prefix = name.slice(0, cut);
  const base = name.slice(cut + 1);
  if (cut < 0 || Buffer.byteLength(prefix) > 155 || Buffer.byteLength(base) > 100) {
    throw new EngineError('USTAR_NAME_TOO_LONG', `path too long for ustar: ${name}`);
  }
  return { prefix, base };
}

function header(name: string, type: '0' | '5', mode: number, size: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  const { prefix, base } = splitName(name);
  h.write(base, 0, 100, 'utf8');
  octal(h, 100, 8, mode & 0o7777);
  octal(h, 108, 8, 0);
  octal(h, 116, 8, 0);
  octal(h, 124, 12, size);
  octal(h, 136, 12, 0); // mtime 0: the same folder packs to the same bytes
  h.write(type, 156, 1, 'ascii');
  h.write('ustar\0', 257, 6, 'ascii');
  h.write('00', 263, 2, 'ascii');
  h.write(prefix, 345, 155, 'utf8');
  h.write(checksum(h).toString(8).padStart(6, '0') + '\0 ', 148, 8, 'ascii');
  return h;
}

/** The folder `root` as a ustar archive (entries sorted by path, names relative to `root`, mtimes 0). */
export function packDirectory(root: string): Buffer {
  const parts: Buffer[] = [];
  const walk = (rel: string): void => {
    for (const entry of readdirSync(join(root, rel)).sort()) {
      const path = rel === '' ? entry : `${rel}/${entry}`;
      const st = statSync(join(root, path));
      if (st.isDirectory()) {
        parts.push(header(`${path}/`, '5', st.mode, 0));
        walk(path);
      } else if (st.isFile()) {
        const data = readFileSync(join(root, path));
        parts.push(header(path, '0', st.mode, data.length), data);
        const pad = (BLOCK - (data.length % BLOCK)) % BLOCK;
        if (pad > 0) parts.push(Buffer.alloc(pad));
      } else {
        throw new EngineError('USTAR_UNSUPPORTED', `not a file or directory: ${path}`);
      }
    }
  };
  walk('');
  parts.push(Buffer.alloc(2 * BLOCK));
  return Buffer.concat(parts);
}

/** What {@link extractUstar} wrote. */
export interface ExtractCounts {
  readonly files: number;
  readonly dirs: number;
  readonly bytes: number;
}

function safeRelative(name: string): string {
  const clean = name.replace(/\/+$/, '');
  if (clean === '' || clean.startsWith('/') || clean.split('/').some((p) => p === '..' || p === '')) {
    throw new EngineError('USTAR_BAD_PATH', `unsafe path in archive: ${name}`);
  }
  return clean;
}

/**
 * Writes the archive streamed by `chunks` into `dest` (created if missing; existing files are not overwritten:
 * `EEXIST`). Stops at the end-of-archive blocks; throws `USTAR_CORRUPT` on a bad checksum or a truncated archive.
 */
export async function extractUstar(chunks: AsyncIterable<Buffer | Uint8Array>, dest: string): Promise<ExtractCounts> {
  mkdirSync(dest, { recursive: true });
  const head = Buffer.alloc(BLOCK);
  let headFill = 0;
  let fd = -1;
  let left = 0; // data bytes of the current file still to come
  let skip = 0; // padding bytes still to skip
  let ended = false;
  let files = 0;
  let dirs = 0;
  let bytes = 0;
  const onHeader = (): void => {
    if (head.every((b) => b === 0)) {
      ended = true;
      return;
    }
    if (readOctal(head, 148, 8) !== checksum(head)) throw new EngineError('USTAR_CORRUPT', 'bad header checksum');
    const base = head.toString('utf8', 0, 100).replace(/\0.*$/s, '');
    const prefix = head.toString('ascii', 257, 262) === 'ustar' ? head.toString('utf8', 345, 500).replace(/\0.*$/s, '') : '';
    const path = join(dest, safeRelative(prefix === '' ? base : `${prefix}/${base}`));
    const type = String.fromCharCode(head[156]!);
    const mode = readOctal(head, 100, 8) & 0o777;
    const size = readOctal(head, 124, 12);
    if (type === '5') {
      mkdirSync(path, { recursive: true, mode: mode || 0o700 });
      dirs++;
    } else if (type === '0' || type === '\0') {
      fd = openSync(path, 'wx', mode || 0o600);
      left = size;
      skip = (BLOCK - (size % BLOCK)) % BLOCK;
      files++;
      bytes += size;
      if (left === 0) {
        closeSync(fd);
        fd = -1;
      }
    } else {
      throw new EngineError('USTAR_UNSUPPORTED', `entry type ${JSON.stringify(type)} of ${path}`);
    }
  };
  try {
    for await (const raw of chunks) {
      const chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
      let at = 0;
      while (at < chunk.length && !ended) {
        if (left > 0) {
          const n = Math.min(left, chunk.length - at);
          writeSync(fd, chunk, at, n);
          at += n;
          left -= n;
          if (left === 0) {
            closeSync(fd);
            fd = -1;
          }
        } else if (skip > 0) {
          const n = Math.min(skip, chunk.length - at);
          at += n;
          skip -= n;
        } else {
          const n = Math.min(BLOCK - headFill, chunk.length - at);
          chunk.copy(head, headFill, at, at + n);
          headFill += n;
          at += n;
          if (headFill === BLOCK) {
            headFill = 0;
            onHeader();
          }
        }
      }
    }
  } finally {
    if (fd >= 0) closeSync(fd);
  }
  if (!ended) throw new EngineError('USTAR_CORRUPT', 'archive ends before its end-of-archive block');
  return { files, dirs, bytes };
}
