/**
 * Which fee schedule a PumpSwap trade pays (pump-fees `FeeConfig::fees_for_quote_mint` and
 * `calculate_fee_tier`, pump-amm `compute_fees`, as mirrored by the SDK's `fees.ts`): canonical pump pools pay
 * market-cap tiers (SOL-like quotes), stable tiers (USDC) or the exotic flat fees; every other pool pays the flat
 * fees. The coin-creator fee applies only when the pool has a coin creator.
 */
import { ZERO_KEY } from '../common/field-table.js';
import type { FeeConfigFields, FeesBps, FeeTier } from './layout.js';

/** Schedule kinds, as stored in the record (`u64[5]`). */
export const SCHEDULE_FLAT = 0;
/** Market-cap tiers (`fee_tiers`): canonical pool, SOL-like quote. */
export const SCHEDULE_TIERS = 1;
/** Stable tiers (`stable_fee_tiers`, or `fee_tiers` while empty): canonical pool, USDC quote. */
export const SCHEDULE_STABLE_TIERS = 2;
/** Exotic flat fees: canonical pool, any other quote (flat fees while the exotic ones are all zero). */
export const SCHEDULE_EXOTIC = 3;

/** pump-amm `TOTAL_TOKEN_SUPPLY`: the market-cap basis of mayhem-mode pools instead of the live mint supply. */
export const PUMP_TOTAL_TOKEN_SUPPLY = 1_000_000_000_000_000n;

/** Quote mints that select `fee_tiers`: the zero key, wrapped SOL and the Token-2022 native mint. */
export const SOL_LIKE_QUOTE_MINTS: readonly string[] = [
  ZERO_KEY,
  'So11111111111111111111111111111111111111112',
  '9pan9bMn5HatX4EJdBwg9VgCa7Uz5HL8N1m5D3NdXejP',
];
/** Quote mints that select `stable_fee_tiers` (pump-fees `STABLE_QUOTE_MINTS`): USDC. */
export const STABLE_QUOTE_MINTS: readonly string[] = ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'];

/** The schedule a pool pays, resolved to three effective rates. */
export interface ResolvedFees {
  /** Effective rates: `creatorFeeBps` is 0 when the pool has no coin creator. */
  readonly fees: FeesBps;
  readonly schedule: number;
  /** Index of the tier used (tier schedules), else 0. */
  readonly tierIndex: number;
}

/** What the selection reads from the pool, its configs and its reserves. */
export interface FeeInputs {
  readonly feeConfig: FeeConfigFields;
  /** `creator == pumpPoolAuthority(base_mint)`. */
  readonly canonical: boolean;
  readonly quoteMint: string;
  /** Market cap in quote atoms (see {@link poolMarketCap}). */
  readonly marketCap: bigint;
  /** GlobalConfig `creator_fee_configurable`. */
  readonly creatorFeeConfigurable: boolean;
  /** Pool `creator_fee_bps` (0 = not configured). */
  readonly poolCreatorFeeBps: bigint;
  /** Pool `coin_creator != Pubkey::default()`. */
  readonly hasCoinCreator: boolean;
}

/** pump-amm `Pool::market_cap`: effective quote reserve x supply / base reserve (truncating), 0 without base. */
export function poolMarketCap(quoteReserve: bigint, baseReserve: bigint, baseSupply: bigint, mayhem: boolean): bigint {
  if (baseReserve === 0n) return 0n;
  return (quoteReserve * (mayhem ? PUMP_TOTAL_TOKEN_SUPPLY : baseSupply)) / baseReserve;
}

/** `calculate_fee_tier`: the last tier whose threshold is <= the market cap (the first below all). Null if empty. */
export function calculateFeeTier(tiers: readonly FeeTier[], marketCap: bigint): [FeesBps, number] | null {
  if (tiers.length === 0) return null;
  if (marketCap < tiers[0]!.marketCapThreshold) return [tiers[0]!.fees, 0];
  for (let i = tiers.length - 1; i >= 0; i--) if (marketCap >= tiers[i]!.marketCapThreshold) return [tiers[i]!.fees, i];
  return [tiers[0]!.fees, 0];
}

function isZeroFees(f: FeesBps): boolean {
  return f.lpFeeBps === 0n && f.protocolFeeBps === 0n && f.creatorFeeBps === 0n;
}

/** Resolves the effective rates of a trade. Null when the schedule is an empty tier list (the SDK throws there). */
export function resolveFees(x: FeeInputs): ResolvedFees | null {
  const cfg = x.feeConfig;
  let fees: FeesBps;
  let schedule = SCHEDULE_FLAT;
  let tierIndex = 0;
  if (!x.canonical) {
    fees = cfg.flatFees;
  } else if (SOL_LIKE_QUOTE_MINTS.includes(x.quoteMint)) {
    const t = calculateFeeTier(cfg.feeTiers, x.marketCap);
    if (!t) return null;
    [fees, tierIndex] = t;
    schedule = SCHEDULE_TIERS;
  } else if (STABLE_QUOTE_MINTS.includes(x.quoteMint)) {
    const t = calculateFeeTier(cfg.stableFeeTiers.length > 0 ? cfg.stableFeeTiers : cfg.feeTiers, x.marketCap);
    if (!t) return null;
    [fees, tierIndex] = t;
    schedule = SCHEDULE_STABLE_TIERS;
  } else {
    fees = isZeroFees(cfg.exoticFlatFees) ? cfg.flatFees : cfg.exoticFlatFees;
    schedule = SCHEDULE_EXOTIC;
  }
  // compute_fees: a configured per-pool creator rate replaces the schedule's while the gate is on.
  let creator = x.creatorFeeConfigurable && x.poolCreatorFeeBps > 0n ? x.poolCreatorFeeBps : fees.creatorFeeBps;
  if (!x.hasCoinCreator) creator = 0n;
  return { fees: { lpFeeBps: fees.lpFeeBps, protocolFeeBps: fees.protocolFeeBps, creatorFeeBps: creator }, schedule, tierIndex };
}
