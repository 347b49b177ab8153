/**
 * The fee selection of `fees.ts` compiled once per Global and FeeConfig (when either account changes), so that a
 * quote can resolve its fee tier from the curve's market cap each time, as the SDK does, at the cost of a few
 * comparisons: thresholds are kept as bigints and as f64 (exact below 2^53; a threshold at or above 2^53 is
 * above every cap the f64 path computes), the market cap is taken exactly in f64 when its operands allow it
 * (else in bigint), and each tier's rates are prebuilt {@link TradeFeeBps} objects (with and without a creator),
 * so no allocation happens unless the curve overrides the creator rate. `resolveTradeFees` returns exactly what
 * `tradeFeeBps` returns (`fee-table.test.ts`).
 */
import { NO_F64, mulDivFloor, u64F64 } from '../common/exact-f64.js';
import type { FeeConfigFields, FeeSchedule, FeeTier } from './fee-config.js';
import { type CurveFeeParams, type GlobalFeeParams, ONE_BILLION_SUPPLY, STABLE_QUOTE_MINTS, type TradeFeeBps, isSolLikeQuoteMint, marketCap } from './fees.js';
import { ZERO_KEY } from './layout.js';

/** One tier vector: thresholds (bigint and f64) and each tier's rates, with and without a creator. */
interface CompiledTiers {
  readonly thresholds: readonly bigint[];
  readonly thresholdsF64: readonly number[];
  readonly withCreator: readonly TradeFeeBps[];
  readonly noCreator: readonly TradeFeeBps[];
}

/** A Global and FeeConfig compiled for per-quote fee selection. */
export interface PumpFeeTable {
  readonly global: GlobalFeeParams;
  /** False without a FeeConfig: every trade pays the Global rates. */
  readonly hasFeeConfig: boolean;
  /** Market-cap tiers of SOL-like quotes; empty: no schedule (the program fails). */
  readonly sol: CompiledTiers;
  /** Tiers of stable quotes (the stable vector, or the SOL one when it is empty). */
  readonly stable: CompiledTiers;
  /** Rates of other quotes (the exotic flat fees, or the flat fees when those are all zero), and of the Global. */
  readonly flat: readonly [withCreator: TradeFeeBps, noCreator: TradeFeeBps];
}

function rates(protocolFeeBps: bigint, creatorFeeBps: bigint): readonly [TradeFeeBps, TradeFeeBps] {
  return [Object.freeze({ protocolFeeBps, creatorFeeBps }), Object.freeze({ protocolFeeBps, creatorFeeBps: 0n })];
}

function compileTiers(tiers: readonly FeeTier[]): CompiledTiers {
  const both = tiers.map((t) => rates(t.fees.protocolFeeBps, t.fees.creatorFeeBps));
  return {
    thresholds: tiers.map((t) => t.marketCapThreshold),
    // Number() rounds a threshold at or above 2^53 to a value at or above 2^53: still above every f64 cap.
    thresholdsF64: tiers.map((t) => Number(t.marketCapThreshold)),
    withCreator: both.map((b) => b[0]),
    noCreator: both.map((b) => b[1]),
  };
}

const isZero = (f: FeeSchedule): boolean => f.lpFeeBps === 0n && f.protocolFeeBps === 0n && f.creatorFeeBps === 0n;

/** Compiles the fee selection of a Global and its FeeConfig (null: none, the Global's rates apply). */
export function compileFeeTable(global: GlobalFeeParams, feeConfig: FeeConfigFields | null): PumpFeeTable {
  if (feeConfig === null) {
    const none = compileTiers([]);
    return { global, hasFeeConfig: false, sol: none, stable: none, flat: rates(global.feeBasisPoints, global.creatorFeeBasisPoints) };
  }
  const flat = isZero(feeConfig.exoticFlatFees) ? feeConfig.flatFees : feeConfig.exoticFlatFees;
  return {
    global,
    hasFeeConfig: true,
    sol: compileTiers(feeConfig.feeTiers),
    stable: compileTiers(feeConfig.stableFeeTiers.length > 0 ? feeConfig.stableFeeTiers : feeConfig.feeTiers),
    flat: rates(flat.protocolFeeBps, flat.creatorFeeBps),
  };
}

/** Index of the tier for a market cap (the last whose threshold it reaches, else the first); -1 when empty. */
function tierIndex(t: CompiledTiers, vQ: bigint, vT: bigint, supply: bigint): number {
  const n = t.thresholds.length;
  if (n === 0) return -1;
  const q = u64F64(vQ);
  const v = u64F64(vT);
  const s = u64F64(supply);
  const cap = q === NO_F64 || v <= 0 || s === NO_F64 ? NO_F64 : mulDivFloor(q, s, v);
  if (cap !== NO_F64) {
    const th = t.thresholdsF64;
    for (let i = n - 1; i >= 0; i--) if (cap >= th[i]!) return i;
    return 0;
  }
  const capBig = marketCap(vQ, vT, supply);
  for (let i = n - 1; i >= 0; i--) if (capBig >= t.thresholds[i]!) return i;
  return 0;
}

/**
 * The rates a trade on this curve pays, exactly as `tradeFeeBps(table's global, table's FeeConfig, curve,
 * mintSupply)`; null when the schedule cannot be selected (an empty tier vector, or a mayhem curve without its
 * mint supply). vToken > 0. Allocates only when the curve's own creator rate overrides the tier's.
 */
export function resolveTradeFees(table: PumpFeeTable, curve: CurveFeeParams, mintSupply: bigint | null): TradeFeeBps | null {
  const noCreator = curve.creator === ZERO_KEY;
  let picked: TradeFeeBps;
  if (!table.hasFeeConfig) picked = table.flat[noCreator ? 1 : 0];
  else {
    const supply = curve.isMayhemMode ? mintSupply : ONE_BILLION_SUPPLY;
    if (supply === null) return null;
    let tiers: CompiledTiers | null = null;
    if (isSolLikeQuoteMint(curve.quoteMint)) tiers = table.sol;
    else if (STABLE_QUOTE_MINTS.includes(curve.quoteMint)) tiers = table.stable;
    if (tiers === null) picked = table.flat[noCreator ? 1 : 0];
    else {
      const i = tierIndex(tiers, curve.virtualQuoteReserves, curve.virtualTokenReserves, supply);
      if (i < 0) return null;
      picked = (noCreator ? tiers.noCreator : tiers.withCreator)[i]!;
    }
  }
  // Global's creator_fee_configurable lets the curve's own rate replace the schedule's (not for creatorless curves).
  if (!noCreator && table.global.creatorFeeConfigurable && curve.creatorFeeBps !== 0n) {
    return { protocolFeeBps: picked.protocolFeeBps, creatorFeeBps: curve.creatorFeeBps };
  }
  return picked;
}
