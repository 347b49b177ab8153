/**
 * The slab-record image of a pool's quotable state and the chain clock of the slab header: what the slab stores,
 * defined here so that the slab depends on nothing above it (the adapter contract, `adapters/types.ts`,
 * re-exports these for the adapters that fill them).
 */

/** Chain clock as carried in the slab header (from the Clock sysvar or the slot stream). */
export interface ChainClock {
  readonly slot: bigint;
  readonly unixTimestamp: bigint;
  readonly epoch: bigint;
}

/** Number of adapter-defined u64 and f64 parameter words in a slab record. */
export const PARAM_U64_WORDS = 16;
export const PARAM_F64_WORDS = 8;

/**
 * The slab-record image of a pool's quotable state. The slab stores exactly these fields; each adapter
 * decides what its `u64` and `f64` parameter words mean (documented in its README).
 */
export interface RecordFields {
  /** 0 when the pool can trade; any other value is an adapter-defined reason it cannot. */
  status: number;
  /** Quotable reserves in atomic units (net of accrued fees where the DEX keeps them in the vaults). */
  reserveA: bigint;
  reserveB: bigint;
  /** Adapter parameter words, length {@link PARAM_U64_WORDS}. */
  readonly u64: bigint[];
  /** Adapter float mirrors used for ranking and marginal prices, length {@link PARAM_F64_WORDS}. */
  readonly f64: number[];
  /**
   * Variable-size state that does not fit the parameter words (a bonding curve's segments), or null. The slab
   * stores it once per distinct content in its extension region, immutable, indexed from the record.
   */
  ext?: RecordExt | null;
}

/**
 * Variable-size, immutable adapter state: `u64` words for the exact path and their float mirrors `f64` for
 * ranking (an adapter decides the meaning and documents it; a u128 is two u64 words, low first).
 */
export interface RecordExt {
  readonly u64: readonly bigint[];
  readonly f64: readonly number[];
}

/** Float-only view of a record: what ranking and marginal prices read without allocating BigInts. */
export interface RecordF64 {
  status: number;
  reserveA: number;
  reserveB: number;
  /** Same length and meaning as {@link RecordFields.f64}. */
  readonly f64: Float64Array | number[];
  /** Float mirrors of the record's extension ({@link RecordExt.f64}), or null when it has none. */
  ext?: Float64Array | readonly number[] | null;
}
