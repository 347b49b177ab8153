/**
 * The extension region of the pool slab: variable-size adapter state (a bonding curve's segments) that does not
 * fit a record's parameter words. Blobs are immutable and interned by content (pools sharing a config share one
 * blob), appended to one growable SharedArrayBuffer by the single writer; a record points at its blob by word
 * offset. Because a blob never changes after it is published, readers need no lock of their own: the record's
 * seqlock covers the pointer, and the pointer is stored only after the blob and the new length are.
 *
 * Layout, in 8-byte words: word 0 magic + version, word 1 used words (published with Atomics.store), then blobs.
 * A blob at word `o`: word `o` holds `n | m << 32` (n u64 words, m f64 words), then n u64 words, then m f64 words.
 */
import { EngineError } from '../errors.js';
import type { RecordExt } from './record-fields.js';

/** Magic of an extension region ("PEXT" little-endian) in the low half of word 0; the layout version in the high half. */
export const EXT_SLAB_MAGIC = 0x54584550;
/** Layout version of the extension region. */
export const EXT_SLAB_VERSION = 1;
/** Words before the first blob. */
const HEADER_WORDS = 2;
const U64_MAX = (1n << 64n) - 1n;
const MAX_PART_WORDS = 0xffff;

/** The extension region of a pool slab. */
export class ExtSlab {
  readonly sab: SharedArrayBuffer;
  private u32!: Uint32Array;
  private u64!: BigUint64Array;
  private f64!: Float64Array;
  private mappedWords = 0;
  /** Writer only: content key -> blob offset. */
  private readonly interned = new Map<string, number>();
  /** Writer only: blob offset per ext object already interned (an adapter reusing its image skips the content key). */
  private readonly byObject = new WeakMap<RecordExt, number>();
  /** Reader cache of float views per blob (a blob never changes, so a view stays valid). */
  private readonly f64Views = new Map<number, Float64Array>();

  private constructor(sab: SharedArrayBuffer) {
    this.sab = sab;
    this.map();
  }

  private map(): void {
    const words = this.sab.byteLength >> 3;
    this.u32 = new Uint32Array(this.sab, 0, words * 2);
    this.u64 = new BigUint64Array(this.sab, 0, words);
    this.f64 = new Float64Array(this.sab, 0, words);
    this.mappedWords = words;
    this.f64Views.clear();
  }

  /** Creates an empty region of `initialWords`, growable in place up to `maxWords` (8-byte words). */
  static create(initialWords: number, maxWords: number): ExtSlab {
    if (!Number.isInteger(initialWords) || !Number.isInteger(maxWords) || initialWords < HEADER_WORDS || maxWords < initialWords) {
      throw new EngineError('SLAB_BAD_CONFIG', `ext slab: need ${HEADER_WORDS} <= initialWords (${initialWords}) <= maxWords (${maxWords})`);
    }
    const sab = new SharedArrayBuffer(initialWords * 8, { maxByteLength: maxWords * 8 });
    const slab = new ExtSlab(sab);
    slab.u32[0] = EXT_SLAB_MAGIC;
    slab.u32[1] = EXT_SLAB_VERSION;
    slab.u32[2] = HEADER_WORDS;
    return slab;
  }

  /** Opens a region created by another thread; refuses another layout version. */
  static attach(sab: SharedArrayBuffer): ExtSlab {
    if (!(sab instanceof SharedArrayBuffer) || sab.byteLength < HEADER_WORDS * 8) {
      throw new EngineError('SLAB_MAGIC_MISMATCH', 'ext slab: not a SharedArrayBuffer holding an extension header');
    }
    const head = new Uint32Array(sab, 0, 2);
    if (head[0] !== EXT_SLAB_MAGIC) throw new EngineError('SLAB_MAGIC_MISMATCH', 'ext slab: bad magic');
    if (head[1] !== EXT_SLAB_VERSION) {
      throw new EngineError('SLAB_VERSION_MISMATCH', `ext slab: layout version ${head[1]}, this build reads ${EXT_SLAB_VERSION}`);
    }
    return new ExtSlab(sab);
  }

  /** Words in use (header included). */
  usedWords(): number {
    // Why Atomics.load: pairs with the writer's Atomics.store after a blob is complete.
    return Atomics.load(this.u32, 2);
  }

  /**
   * Stores `ext` (writer only) and returns its word offset; the same content returns the same offset. Throws
   * `SLAB_BAD_RECORD` for values that do not fit and `SLAB_FULL` past the region's maximum size.
   */
  intern(ext: RecordExt): number {
    const same = this.byObject.get(ext);
    if (same !== undefined) return same;
    const n = ext.u64.length;
    const m = ext.f64.length;
    if (n > MAX_PART_WORDS || m > MAX_PART_WORDS) throw new EngineError('SLAB_BAD_RECORD', `ext: ${n} u64 / ${m} f64 words, at most ${MAX_PART_WORDS} each`);
    for (const v of ext.u64) if (typeof v !== 'bigint' || v < 0n || v > U64_MAX) throw new EngineError('SLAB_BAD_RECORD', 'ext: u64 word out of range');
    for (const v of ext.f64) if (typeof v !== 'number') throw new EngineError('SLAB_BAD_RECORD', 'ext: f64 word is not a number');
    const key = `${ext.u64.join(',')}|${ext.f64.join(',')}`;
    const known = this.interned.get(key);
    if (known !== undefined) {
      this.byObject.set(ext, known);
      return known;
    }
    const at = this.u32[2]!;
    const need = at + 1 + n + m;
    if (need > this.mappedWords) this.grow(need);
    this.u64[at] = BigInt(n) | (BigInt(m) << 32n);
    for (let i = 0; i < n; i++) this.u64[at + 1 + i] = ext.u64[i]!;
    for (let i = 0; i < m; i++) this.f64[at + 1 + n + i] = ext.f64[i]!;
    // Why Atomics.store: publishes the blob; the record that points at it is written after this.
    Atomics.store(this.u32, 2, need);
    this.interned.set(key, at);
    this.byObject.set(ext, at);
    return at;
  }

  /** The blob at `offset` as a fresh {@link RecordExt} (exact path). */
  read(offset: number): RecordExt {
    this.ensure(offset);
    const head = this.u64[offset]!;
    const n = Number(head & 0xffffffffn);
    const m = Number(head >> 32n);
    const u64: bigint[] = new Array<bigint>(n);
    for (let i = 0; i < n; i++) u64[i] = this.u64[offset + 1 + i]!;
    const f64: number[] = new Array<number>(m);
    for (let i = 0; i < m; i++) f64[i] = this.f64[offset + 1 + n + i]!;
    return { u64, f64 };
  }

  /** The float words of the blob at `offset`, as a cached view (no allocation after the first read). */
  floats(offset: number): Float64Array {
    const cached = this.f64Views.get(offset);
    if (cached) return cached;
    this.ensure(offset);
    const lo = this.u32[offset * 2]!;
    const m = this.u32[offset * 2 + 1]!;
    const view = this.f64.subarray(offset + 1 + lo, offset + 1 + lo + m);
    this.f64Views.set(offset, view);
    return view;
  }

  private ensure(offset: number): void {
    if (!Number.isInteger(offset) || offset < HEADER_WORDS) throw new EngineError('SLAB_BAD_RECORD', `ext offset ${offset} is not a blob`);
    const used = this.usedWords();
    if (offset >= used) throw new EngineError('SLAB_BAD_RECORD', `ext offset ${offset} is past the used region`);
    // The writer grew the buffer before publishing the used length, so this thread's byteLength covers it.
    if (used > this.mappedWords) this.map();
  }

  private grow(minWords: number): void {
    const max = this.sab.maxByteLength >> 3;
    if (minWords > max) throw new EngineError('SLAB_FULL', `ext slab is full at ${max} words`, { maxWords: max });
    const next = Math.min(max, Math.max(minWords, this.mappedWords * 2));
    this.sab.grow(next * 8);
    this.map();
  }
}
