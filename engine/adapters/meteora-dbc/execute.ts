/**
 * The program's state transition for one swap (handle_swap_wrapper: update_pre_swap, apply_swap_result,
 * update_post_swap, the curve-complete bookkeeping), for the localnet: the pool's price, reserves, fee
 * accumulators, metrics and volatility tracker move as the program moves them; when the base and quote vaults are
 * among the accounts, their amounts move too (input vault + amount paid, output vault - amount received).
 * Not modelled: referral transfers, the first-swap minimum fee, the user's token accounts and the slippage check
 * (the localnet program applies those around this).
 */
import { notApplied } from '../common/execute-support.js';
import { EngineError } from '../../errors.js';
import { tokenAccountAmount, withTokenAmount } from '../common/spl-layouts.js';
import type { AccountWrite, ChainClock, ExecuteResult, PoolDescriptor, QuoteResult, SwapMode } from '../types.js';
import { type DbcError, ONE_Q64, U128_MAX, U64_MAX } from './curve-math.js';
import { BASIS_POINT_MAX } from './fee-math.js';
import { type PoolConfigAccount, type VirtualPoolFields, decodePoolConfig, decodeVirtualPool, encodeVirtualPool, isPoolConfigAccount, isVirtualPoolAccount } from './layout.js';
import { type DbcSwap, dbcQuote } from './quote.js';
import { dbcStateFrom } from './state.js';

/** `VolatilityTracker::get_delta_bin_id`: 2 * ((upper << 64) / lower - 1.0) / bin_step_u128. */
export function deltaBinId(binStepU128: bigint, a: bigint, b: bigint): bigint | DbcError {
  const [upper, lower] = a > b ? [a, b] : [b, a];
  if (lower === 0n) return 'MathOverflow';
  const ratio = (upper << 64n) / lower;
  if (ratio > U128_MAX) return 'MathOverflow';
  if (binStepU128 === 0n) return 'MathOverflow';
  return ((ratio - ONE_Q64) / binStepU128) * 2n;
}

function failed(q: DbcSwap, error: DbcError | 'InsufficientLiquidityForMigration'): ExecuteResult {
  const quote: QuoteResult & { error: string } = { ...q, status: 'INACTIVE', error };
  return { quote, writes: [] };
}

function lockedVestingTotal(cfg: PoolConfigAccount): bigint {
  return cfg.lockedCliffUnlockAmount + cfg.lockedAmountPerPeriod * cfg.lockedNumberOfPeriod;
}

function hasLockedVesting(cfg: PoolConfigAccount): boolean {
  return cfg.lockedAmountPerPeriod !== 0n || cfg.lockedCliffDurationFromMigrationTime !== 0n || cfg.lockedFrequency !== 0n
    || cfg.lockedNumberOfPeriod !== 0n || cfg.lockedCliffUnlockAmount !== 0n;
}

/** The pool after the swap `q` (throws nothing: an arithmetic failure of the program is returned as its name). */
export function applySwap(pool: VirtualPoolFields, cfg: PoolConfigAccount, q: DbcSwap, aToB: boolean, timestamp: bigint): VirtualPoolFields | DbcError {
  const p: VirtualPoolFields = { ...pool };
  const dynamic = cfg.dynamicFeeInitialized !== 0;
  if (dynamic) {
    // update_pre_swap -> update_references
    const elapsed = timestamp > p.lastUpdateTimestamp ? timestamp - p.lastUpdateTimestamp : 0n;
    if (elapsed >= BigInt(cfg.filterPeriod)) {
      p.sqrtPriceReference = p.sqrtPrice;
      p.volatilityReference = elapsed < BigInt(cfg.decayPeriod) ? (p.volatilityAccumulator * BigInt(cfg.reductionFactor)) / BASIS_POINT_MAX : 0n;
    }
  }
  const oldSqrt = p.sqrtPrice;
  p.sqrtPrice = q.nextSqrtPrice;
  const add = (a: bigint, b: bigint): bigint | null => (a + b > U64_MAX ? null : a + b);
  const acc = q.feesOnBaseToken
    ? [add(p.partnerBaseFee, q.partnerFee), add(p.protocolBaseFee, q.protocolFee), add(p.creatorBaseFee, q.creatorFee), add(p.totalProtocolBaseFee, q.protocolFee), add(p.totalTradingBaseFee, q.tradingFee)]
    : [add(p.partnerQuoteFee, q.partnerFee), add(p.protocolQuoteFee, q.protocolFee), add(p.creatorQuoteFee, q.creatorFee), add(p.totalProtocolQuoteFee, q.protocolFee), add(p.totalTradingQuoteFee, q.tradingFee)];
  if (acc.some((v) => v === null)) return 'MathOverflow';
  const [partner, protocol, creator, totalProtocol, totalTrading] = acc as bigint[];
  if (q.feesOnBaseToken) {
    Object.assign(p, { partnerBaseFee: partner, protocolBaseFee: protocol, creatorBaseFee: creator, totalProtocolBaseFee: totalProtocol, totalTradingBaseFee: totalTrading });
  } else {
    Object.assign(p, { partnerQuoteFee: partner, protocolQuoteFee: protocol, creatorQuoteFee: creator, totalProtocolQuoteFee: totalProtocol, totalTradingQuoteFee: totalTrading });
  }
  // Reserve bounds were checked by the quote (the program's safe_add / safe_sub here).
  if (aToB) {
    p.baseReserve += q.excludedFeeInputAmount;
    p.quoteReserve -= q.reserveOutAmount;
  } else {
    p.quoteReserve += q.excludedFeeInputAmount;
    p.baseReserve -= q.reserveOutAmount;
  }
  if (dynamic) {
    // update_post_swap -> update_volatility_accumulator, then last_update_timestamp when a bin is crossed.
    const delta = deltaBinId(cfg.binStepU128, p.sqrtPrice, p.sqrtPriceReference);
    if (typeof delta === 'string') return delta;
    const v = p.volatilityReference + delta * BASIS_POINT_MAX;
    if (v > U128_MAX) return 'MathOverflow';
    const max = BigInt(cfg.maxVolatilityAccumulator);
    p.volatilityAccumulator = v < max ? v : max;
    const moved = deltaBinId(cfg.binStepU128, oldSqrt, p.sqrtPrice);
    if (typeof moved === 'string') return moved;
    if (moved > 0n) p.lastUpdateTimestamp = timestamp;
  }
  p.hasSwap = 1;
  return p;
}

/**
 * Executes a swap on the pool's accounts: returns the quote and, when it is OK, the new pool data (and the vaults'
 * when they were given). A failure of the program after the quote (fee accumulator overflow, the migration base
 * check) comes back as INACTIVE with no writes. Throws EngineError `DBC_MISSING_ACCOUNT` when the pool or its
 * config is absent (a localnet setup bug).
 */
export function dbcExecute(
  pool: PoolDescriptor,
  accounts: ReadonlyMap<string, Uint8Array>,
  aToB: boolean,
  amount: bigint,
  mode: SwapMode,
  clock: ChainClock,
): ExecuteResult {
  const poolData = accounts.get(pool.address);
  const configKey = pool.dependencies[0];
  const configData = configKey === undefined ? undefined : accounts.get(configKey);
  if (!poolData || !configData || !isVirtualPoolAccount(poolData) || !isPoolConfigAccount(configData)) {
    throw new EngineError('DBC_MISSING_ACCOUNT', 'DBC pool or config account missing', { pool: pool.address });
  }
  const before = decodeVirtualPool(poolData);
  const cfg = decodePoolConfig(configData);
  const q = dbcQuote(dbcStateFrom(before, cfg, clock), aToB, amount, mode);
  if (q.status !== 'OK') return notApplied(q);
  const timestamp = clock.unixTimestamp < 0n ? 0n : clock.unixTimestamp;
  const after = applySwap(before, cfg, q, aToB, timestamp);
  if (typeof after === 'string') return failed(q, after);

  const writes: AccountWrite[] = [];
  const [inVaultKey, outVaultKey] = aToB ? [before.baseVault, before.quoteVault] : [before.quoteVault, before.baseVault];
  const inVault = accounts.get(inVaultKey);
  const outVault = accounts.get(outVaultKey);
  let baseVaultAfter: bigint | undefined;
  if (inVault && outVault) {
    const newIn = tokenAccountAmount(inVault) + q.inAmount;
    const outHeld = tokenAccountAmount(outVault);
    if (newIn > U64_MAX || outHeld < q.outAmount) return failed(q, 'MathOverflow');
    writes.push({ address: inVaultKey, data: withTokenAmount(inVault, newIn) }, { address: outVaultKey, data: withTokenAmount(outVault, outHeld - q.outAmount) });
    baseVaultAfter = aToB ? newIn : outHeld - q.outAmount;
  }
  if (after.quoteReserve >= cfg.migrationQuoteThreshold) {
    // The program reloads the base vault and requires enough base for the migration.
    if (baseVaultAfter !== undefined) {
      const required = cfg.migrationBaseThreshold + after.partnerBaseFee + after.protocolBaseFee + after.creatorBaseFee + lockedVestingTotal(cfg);
      if (baseVaultAfter < required) return failed(q, 'InsufficientLiquidityForMigration');
    }
    after.finishCurveTimestamp = timestamp;
    after.migrationProgress = hasLockedVesting(cfg) ? 1 : 2;
  }
  writes.unshift({ address: pool.address, data: encodeVirtualPool(after) });
  return { quote: q, writes };
}
