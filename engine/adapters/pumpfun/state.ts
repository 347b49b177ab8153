/**
 * The quotable state of a bonding curve, built from the curve account, the Global, the FeeConfig and (mayhem
 * mode only) the mint as of one slot: the four reserves and the fee rates of a trade at the current market cap.
 * The rates depend on the reserves only, so they are resolved here once per curve update.
 */
import { MINT_SIZE, decodeMint } from '../common/spl-layouts.js';
import type { ChainClock, PoolDescriptor } from '../types.js';
import { tryDecodeFeeConfig } from './fee-config.js';
import { isSolLikeQuoteMint, tradeFeeBps } from './fees.js';
import { type BondingCurveFields, GLOBAL_OFFSET, decodeBondingCurve, isBondingCurveAccount, isGlobalAccount, zeroPadded, GLOBAL_SIZE } from './layout.js';
import type { CurveReserves } from './math.js';

/** Record status: the curve trades. */
export const PUMPFUN_STATUS_OK = 0;
/** Record status: `complete` is set (all real tokens sold; the program refuses with BondingCurveComplete). */
export const PUMPFUN_STATUS_COMPLETE = 1;
/** Record status: virtual token reserves are 0 (migrated; the SDK quotes 0). */
export const PUMPFUN_STATUS_MIGRATED = 2;
/** Record status: no fee schedule can be selected (an empty tier vector: the SDK throws, the program fails). */
export const PUMPFUN_STATUS_BAD_FEE_CONFIG = 3;
/**
 * Record status: a non-SOL quote mint (USDC, exotic). The math supports it (`pumpfunCurveQuote`), but its
 * `buy_v2` / `sell_v2` instructions and token movements are not modelled, so the router must not pick it.
 */
export const PUMPFUN_STATUS_NON_SOL_QUOTE = 4;

/** Decoded, quotable state of one curve (token A = the coin, token B = the quote). */
export interface PumpfunState extends CurveReserves {
  /** One of the `PUMPFUN_STATUS_*` values; nonzero means quotes return INACTIVE. */
  readonly status: number;
  /** Protocol fee of a trade at the current market cap, bps. */
  readonly protocolFeeBps: bigint;
  /** Creator fee of a trade, bps (0 when the curve has no creator). */
  readonly creatorFeeBps: bigint;
}

function u64At(data: Uint8Array, offset: number): bigint {
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(offset, true);
}

/** Record status of a decoded curve (fee selection aside). */
export function curveStatus(c: BondingCurveFields): number {
  if (c.complete) return PUMPFUN_STATUS_COMPLETE;
  if (c.virtualTokenReserves === 0n) return PUMPFUN_STATUS_MIGRATED;
  if (!isSolLikeQuoteMint(c.quoteMint)) return PUMPFUN_STATUS_NON_SOL_QUOTE;
  return PUMPFUN_STATUS_OK;
}

/** Decoded FeeConfig per account buffer (ingest hands the same buffer until the account changes). */
const feeConfigCache = new WeakMap<Uint8Array, ReturnType<typeof tryDecodeFeeConfig>>();

function feeConfigOf(data: Uint8Array): ReturnType<typeof tryDecodeFeeConfig> {
  let v = feeConfigCache.get(data);
  if (v === undefined) {
    v = tryDecodeFeeConfig(data);
    feeConfigCache.set(data, v);
  }
  return v;
}

/** The Global account padded to its current size, per account buffer. */
const globalCache = new WeakMap<Uint8Array, Uint8Array>();

function globalOf(data: Uint8Array): Uint8Array {
  let v = globalCache.get(data);
  if (v === undefined) {
    v = zeroPadded(data, GLOBAL_SIZE);
    globalCache.set(data, v);
  }
  return v;
}

/**
 * Builds the state from the curve and `pool.dependencies` = [Global, FeeConfig, mint (mayhem mode only)].
 * Null while one of them is missing or is not the expected account. The clock is not read (pump.fun fees do
 * not depend on time).
 */
export function buildPumpfunState(
  pool: PoolDescriptor,
  poolData: Uint8Array,
  deps: ReadonlyMap<string, Uint8Array>,
  _clock: ChainClock,
): PumpfunState | null {
  const [globalKey, feeConfigKey, mintKey] = pool.dependencies;
  // Every dependency (the curve's token account included) must be present: one slot-consistent snapshot.
  for (const d of pool.dependencies) if (!deps.has(d)) return null;
  if (globalKey === undefined || feeConfigKey === undefined || !isBondingCurveAccount(poolData)) return null;
  const globalData = deps.get(globalKey);
  const feeData = deps.get(feeConfigKey);
  if (!globalData || !feeData || !isGlobalAccount(globalData)) return null;
  const feeConfig = feeConfigOf(feeData);
  if (!feeConfig) return null;
  const curve = decodeBondingCurve(poolData);
  let supply: bigint | null = null;
  if (curve.isMayhemMode) {
    const mint = mintKey === undefined ? undefined : deps.get(mintKey);
    if (!mint || mint.length < MINT_SIZE) return null;
    supply = decodeMint(mint).supply;
  }
  const g = globalOf(globalData);
  let status = curveStatus(curve);
  let protocolFeeBps = 0n;
  let creatorFeeBps = 0n;
  if (curve.virtualTokenReserves > 0n) {
    const fees = tradeFeeBps(
      {
        feeBasisPoints: u64At(g, GLOBAL_OFFSET.feeBasisPoints),
        creatorFeeBasisPoints: u64At(g, GLOBAL_OFFSET.creatorFeeBasisPoints),
        creatorFeeConfigurable: g[GLOBAL_OFFSET.creatorFeeConfigurable] !== 0,
      },
      feeConfig,
      curve,
      supply,
    );
    if (fees === null) status = status === PUMPFUN_STATUS_OK ? PUMPFUN_STATUS_BAD_FEE_CONFIG : status;
    else ({ protocolFeeBps, creatorFeeBps } = fees);
  }
  return {
    status,
    virtualTokenReserves: curve.virtualTokenReserves,
    virtualQuoteReserves: curve.virtualQuoteReserves,
    realTokenReserves: curve.realTokenReserves,
    realQuoteReserves: curve.realQuoteReserves,
    protocolFeeBps,
    creatorFeeBps,
  };
}
