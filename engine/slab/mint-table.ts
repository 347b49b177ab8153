/**
 * The mint table: an append-only list of mints (32-byte key, decimals, flags) in its own growable
 * SharedArrayBuffer. Pool records refer to mints by their index here. One writer (the ingest thread) appends;
 * entries never change once published, so readers need no seqlock, only the published count.
 */
import bs58 from 'bs58';
import { encodeKey32 } from '../base58-key.js';
import { EngineError } from '../errors.js';
import {
  MINT_ENTRY,
  MINT_ENTRY_BYTES,
  MINT_HEADER,
  MINT_HEADER_BYTES,
  MINT_TABLE_MAGIC,
  MINT_TABLE_VERSION,
  mintTableBytes,
} from './layout.js';

const H32_MAGIC = MINT_HEADER.magic >> 2;
const H32_VERSION = MINT_HEADER.layoutVersion >> 2;
const H32_CAPACITY = MINT_HEADER.capacity >> 2;
const H32_COUNT = MINT_HEADER.count >> 2;

function entryOffset(id: number): number {
  return MINT_HEADER_BYTES + id * MINT_ENTRY_BYTES;
}

/**
 * Shared mint table. Every thread keeps a local base58 -> id map and an id -> base58 cache, extended lazily when
 * the published count has grown since the last lookup.
 */
export class MintTable {
  /** The shared buffer; hand it to other threads and `attach` there. */
  readonly sab: SharedArrayBuffer;
  /** Header words only: the header never moves, so this view never needs re-making. */
  private readonly u32: Uint32Array;
  /** Fixed-length byte view, re-made when the buffer has grown (length-tracking views are slower on Node 20). */
  private u8: Uint8Array;
  /** This thread's index of the entries below `indexed`. */
  private readonly ids = new Map<string, number>();
  /** Base58 of each indexed entry, by id. */
  private readonly names: string[] = [];
  private indexed = 0;

  private constructor(sab: SharedArrayBuffer) {
    this.sab = sab;
    this.u32 = new Uint32Array(sab, 0, MINT_HEADER_BYTES >> 2);
    this.u8 = new Uint8Array(sab, 0, sab.byteLength);
  }

  /** Creates an empty table with room for `initialMints`, growable in place up to `maxMints`. */
  static create(initialMints: number, maxMints: number): MintTable {
    if (!Number.isInteger(initialMints) || !Number.isInteger(maxMints) || initialMints < 0 || maxMints < 1 || initialMints > maxMints) {
      throw new EngineError('SLAB_BAD_CONFIG', `mint table: need 0 <= initialMints (${initialMints}) <= maxMints (${maxMints}), maxMints >= 1`, {
        initialMints,
        maxMints,
      });
    }
    const sab = new SharedArrayBuffer(mintTableBytes(initialMints), { maxByteLength: mintTableBytes(maxMints) });
    const t = new MintTable(sab);
    // Plain stores: nobody else holds the buffer yet; handing it to a thread publishes them.
    t.u32[H32_MAGIC] = MINT_TABLE_MAGIC;
    t.u32[H32_VERSION] = MINT_TABLE_VERSION;
    t.u32[H32_CAPACITY] = initialMints;
    return t;
  }

  /**
   * Opens a table created elsewhere. Throws `SLAB_MAGIC_MISMATCH` when the buffer is not a mint table and
   * `SLAB_VERSION_MISMATCH` when its layout version differs from this build's.
   */
  static attach(sab: SharedArrayBuffer): MintTable {
    if (!(sab instanceof SharedArrayBuffer) || sab.byteLength < MINT_HEADER_BYTES) {
      throw new EngineError('SLAB_MAGIC_MISMATCH', 'mint table: not a SharedArrayBuffer holding a mint table header');
    }
    const head = new Uint32Array(sab, 0, MINT_HEADER_BYTES >> 2);
    const magic = head[H32_MAGIC]!;
    if (magic !== MINT_TABLE_MAGIC) {
      throw new EngineError('SLAB_MAGIC_MISMATCH', `mint table: magic 0x${magic.toString(16)}, expected 0x${MINT_TABLE_MAGIC.toString(16)}`, {
        found: magic,
        expected: MINT_TABLE_MAGIC,
      });
    }
    const version = head[H32_VERSION]!;
    if (version !== MINT_TABLE_VERSION) {
      throw new EngineError('SLAB_VERSION_MISMATCH', `mint table: layout version ${version}, this build reads version ${MINT_TABLE_VERSION}`, {
        found: version,
        expected: MINT_TABLE_VERSION,
      });
    }
    return new MintTable(sab);
  }

  /** Number of published mints. */
  count(): number {
    // Why Atomics.load: pairs with the Atomics.store in `add`; entries below the returned count are complete, and
    // the buffer had grown before the count was published, so this thread's byteLength covers them.
    const n = Atomics.load(this.u32, H32_COUNT);
    if (entryOffset(n) > this.u8.length) this.u8 = new Uint8Array(this.sab, 0, this.sab.byteLength);
    return n;
  }

  /** The most mints the buffer can ever hold (fixed at creation). */
  maxMints(): number {
    return Math.floor((this.sab.maxByteLength - MINT_HEADER_BYTES) / MINT_ENTRY_BYTES);
  }

  /**
   * Appends a mint (writer only) and returns its id, or the existing id when the mint is already present (its
   * decimals and flags are then left unchanged). Grows the buffer when full; throws `SLAB_FULL` at `maxMints`.
   */
  add(mint: Uint8Array | string, decimals: number, flags = 0): number {
    const bytes = typeof mint === 'string' ? decodeMint(mint) : mint;
    const key = typeof mint === 'string' ? mint : bytes.length === 32 ? encodeKey32(bytes) : bs58.encode(bytes);
    if (bytes.length !== 32) throw new EngineError('SLAB_BAD_RECORD', `mint ${key} is not 32 bytes`, { mint: key });
    if (!Number.isInteger(decimals) || decimals < 0 || decimals > 255 || !Number.isInteger(flags) || flags < 0 || flags > 255) {
      throw new EngineError('SLAB_BAD_RECORD', `mint ${key}: decimals ${decimals} and flags ${flags} must be u8`, { mint: key });
    }
    this.refresh();
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    // Plain read: only the writer thread changes the count.
    const id = this.u32[H32_COUNT]!;
    if (id >= this.u32[H32_CAPACITY]!) this.grow(id + 1);
    const at = entryOffset(id);
    this.u8.set(bytes, at + MINT_ENTRY.mint);
    this.u8[at + MINT_ENTRY.decimals] = decimals;
    this.u8[at + MINT_ENTRY.flags] = flags;
    // Why Atomics.store: publishes the entry; a reader that loads the new count sees its bytes and the grown buffer.
    Atomics.store(this.u32, H32_COUNT, id + 1);
    this.ids.set(key, id);
    this.names[id] = key;
    this.indexed = id + 1;
    return id;
  }

  /** Id of a mint given in base58, or undefined when the table does not hold it. */
  idOf(mintBase58: string): number | undefined {
    const id = this.ids.get(mintBase58);
    if (id !== undefined) return id;
    return this.refresh() ? this.ids.get(mintBase58) : undefined;
  }

  /** Base58 address of mint `id` (cached per thread). Throws `SLAB_NO_SUCH_MINT` for an unpublished id. */
  mintOf(id: number): string {
    const name = this.names[id];
    if (name !== undefined) return name;
    this.refresh();
    const again = this.names[id];
    if (again === undefined) throw new EngineError('SLAB_NO_SUCH_MINT', `mint id ${id} is not published`, { id });
    return again;
  }

  /** Decimals of mint `id`. Throws `SLAB_NO_SUCH_MINT` for an unpublished id. */
  decimals(id: number): number {
    return this.u8[this.checkedOffset(id) + MINT_ENTRY.decimals]!;
  }

  /** Flags byte of mint `id` (meaning defined by the ingest; 0 by default). */
  flags(id: number): number {
    return this.u8[this.checkedOffset(id) + MINT_ENTRY.flags]!;
  }

  /** Indexes entries published since the last refresh; true when there were any. */
  private refresh(): boolean {
    const n = this.count();
    if (n <= this.indexed) return false;
    for (let id = this.indexed; id < n; id++) {
      // No seqlock: entries below the published count are immutable.
      const at = entryOffset(id);
      // Flat strings: the index holds one per mint in every thread.
      const key = encodeKey32(this.u8, at);
      this.ids.set(key, id);
      this.names[id] = key;
    }
    this.indexed = n;
    return true;
  }

  private checkedOffset(id: number): number {
    if ((id >>> 0) !== id || (id >= this.indexed && id >= this.count())) {
      throw new EngineError('SLAB_NO_SUCH_MINT', `mint id ${id} is not published`, { id });
    }
    return entryOffset(id);
  }

  private grow(minMints: number): void {
    const max = this.maxMints();
    if (minMints > max) throw new EngineError('SLAB_FULL', `mint table is full at ${max} mints (maxMints)`, { maxMints: max });
    const next = Math.min(max, Math.max(minMints, this.u32[H32_CAPACITY]! * 2, 64));
    this.sab.grow(mintTableBytes(next));
    this.u8 = new Uint8Array(this.sab, 0, this.sab.byteLength);
    // Why Atomics.store: keeps the header's capacity current for other threads; publication is the count store.
    Atomics.store(this.u32, H32_CAPACITY, next);
  }
}

function decodeMint(base58: string): Uint8Array {
  try {
    return bs58.decode(base58);
  } catch {
    throw new EngineError('SLAB_BAD_RECORD', `mint ${base58} is not valid base58`, { mint: base58 });
  }
}
