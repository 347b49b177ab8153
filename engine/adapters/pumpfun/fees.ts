/**
 * Which fee rates a curve's trade pays: the FeeConfig schedule selected by quote mint and market cap (or the
 * Global fallback when there is no FeeConfig), then the curve's own creator rate when Global allows it, then no
 * creator fee at all when the curve has no creator. Mirrors the SDK's `computeFeesBps` / `getFee` (pump's
 * `compute_fees` after the pump-fees CPI). Pure bigint.
 */
import type { FeeConfigFields, FeeSchedule, FeeTier } from './fee-config.js';
import { NATIVE_MINT, ZERO_KEY } from './layout.js';

/** The fixed supply the market cap uses outside mayhem mode (1e9 tokens of 6 decimals). */
export const ONE_BILLION_SUPPLY = 1_000_000_000_000_000n;
/** Token-2022's native mint: pump-fees treats it as SOL-like. */
export const NATIVE_MINT_2022 = '9pan9bMn5HatX4EJdBwg9VgCa7Uz5HL8N1m5D3NdXejP';
/** Quote mints pump-fees charges `stableFeeTiers` for (`STABLE_QUOTE_MINTS`: mainnet USDC). */
export const STABLE_QUOTE_MINTS: readonly string[] = ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'];

/** The Global fields the fee selection reads. */
export interface GlobalFeeParams {
  readonly feeBasisPoints: bigint;
  readonly creatorFeeBasisPoints: bigint;
  readonly creatorFeeConfigurable: boolean;
}

/** The curve fields the fee selection reads. */
export interface CurveFeeParams {
  readonly virtualTokenReserves: bigint;
  readonly virtualQuoteReserves: bigint;
  /** Base58; the zero key for SOL curves. */
  readonly quoteMint: string;
  /** Base58; the zero key means no creator (no creator fee). */
  readonly creator: string;
  readonly creatorFeeBps: bigint;
  readonly isMayhemMode: boolean;
}

/** Effective rates of one trade, in basis points (creator 0 when the curve has no creator). */
export interface TradeFeeBps {
  readonly protocolFeeBps: bigint;
  readonly creatorFeeBps: bigint;
}

/** True for the quote mints pump-fees treats as SOL: the zero key, wrapped SOL, Token-2022's native mint. */
export function isSolLikeQuoteMint(quoteMint: string): boolean {
  return quoteMint === ZERO_KEY || quoteMint === NATIVE_MINT || quoteMint === NATIVE_MINT_2022;
}

/** Market cap in quote atoms: vQuote * supply / vToken (vToken > 0). */
export function marketCap(virtualQuoteReserves: bigint, virtualTokenReserves: bigint, supply: bigint): bigint {
  return (virtualQuoteReserves * supply) / virtualTokenReserves;
}

/** The tier for a market cap: the last tier whose threshold it reaches, else the first. Null when empty. */
export function feeTierFor(tiers: readonly FeeTier[], cap: bigint): FeeSchedule | null {
  if (tiers.length === 0) return null;
  for (let i = tiers.length - 1; i >= 0; i--) if (cap >= tiers[i]!.marketCapThreshold) return tiers[i]!.fees;
  return tiers[0]!.fees;
}

const isZero = (f: FeeSchedule): boolean => f.lpFeeBps === 0n && f.protocolFeeBps === 0n && f.creatorFeeBps === 0n;

/**
 * The rates a trade on this curve pays, or null when the schedule cannot be selected (an empty tier vector: the
 * SDK throws, the program fails). `mintSupply` is read only in mayhem mode (null there: no rates). vToken > 0.
 */
export function tradeFeeBps(
  global: GlobalFeeParams,
  feeConfig: FeeConfigFields | null,
  curve: CurveFeeParams,
  mintSupply: bigint | null,
): TradeFeeBps | null {
  let protocol: bigint;
  let creator: bigint;
  if (feeConfig !== null) {
    const supply = curve.isMayhemMode ? mintSupply : ONE_BILLION_SUPPLY;
    if (supply === null) return null;
    const cap = marketCap(curve.virtualQuoteReserves, curve.virtualTokenReserves, supply);
    let schedule: FeeSchedule | null;
    if (isSolLikeQuoteMint(curve.quoteMint)) schedule = feeTierFor(feeConfig.feeTiers, cap);
    else if (STABLE_QUOTE_MINTS.includes(curve.quoteMint)) {
      schedule = feeTierFor(feeConfig.stableFeeTiers.length > 0 ? feeConfig.stableFeeTiers : feeConfig.feeTiers, cap);
    } else schedule = isZero(feeConfig.exoticFlatFees) ? feeConfig.flatFees : feeConfig.exoticFlatFees;
    if (schedule === null) return null;
    protocol = schedule.protocolFeeBps;
    creator = schedule.creatorFeeBps;
  } else {
    protocol = global.feeBasisPoints;
    creator = global.creatorFeeBasisPoints;
  }
  if (global.creatorFeeConfigurable && curve.creatorFeeBps !== 0n) creator = curve.creatorFeeBps;
  return { protocolFeeBps: protocol, creatorFeeBps: curve.creator === ZERO_KEY ? 0n : creator };
}
