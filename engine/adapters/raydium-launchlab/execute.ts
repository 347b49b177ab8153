/**
 * The program's state transition for one swap, for the localnet: the pool's real reserves and protocol fee
 * accumulator move, and a buy that takes the last atom of `total_sell_a` switches the pool to Migrate. The token
 * side: vault A pays or receives the A amount; vault B receives the input net of the platform and creator fees (a
 * buy) or pays the output plus those fees (a sell); the protocol fee stays in vault B (`protocol_fee` tracks it);
 * the platform and creator fees go to their fee vaults. Vaults and fee vaults are written when they are among
 * `accounts` (they are not dependencies of the quote: the reserves live in the pool account).
 * Not modelled: `pool.platform_fee` (the upgraded program pays platform fees into the platform fee vault
 * instead), the share fee (rate 0), Token-2022 transfer fees, the user's accounts and the slippage check.
 */
import { notApplied, poolStateForExecute } from '../common/execute-support.js';
import { tokenAccountAmount, withTokenAmount } from '../common/spl-layouts.js';
import type { AccountWrite, ChainClock, ExecuteResult, PoolDescriptor, SwapMode } from '../types.js';
import { POOL_OFFSET, POOL_STATUS_MIGRATE, decodeLaunchlabPool } from './layout.js';
import { type LaunchlabSwap, U64_MAX } from './math.js';
import { creatorFeeVault, platformFeeVault } from './pda.js';
import { launchlabQuote } from './quote.js';
import { buildLaunchlabState } from './state.js';

/** The token accounts a swap of this pool moves, by role. */
export interface LaunchlabSwapAccounts {
  readonly vaultA: string;
  readonly vaultB: string;
  readonly platformFeeVault: string;
  readonly creatorFeeVault: string;
}

/** The vaults and fee vaults of a pool (from its account data). */
export function launchlabSwapAccounts(poolData: Uint8Array): LaunchlabSwapAccounts {
  const p = decodeLaunchlabPool(poolData);
  return {
    vaultA: p.vaultA,
    vaultB: p.vaultB,
    platformFeeVault: platformFeeVault(p.platformConfig, p.mintB),
    creatorFeeVault: creatorFeeVault(p.creator, p.mintB),
  };
}

/** Token amount deltas of one swap, by account role (positive = received). */
export function launchlabTokenDeltas(q: LaunchlabSwap, aToB: boolean): { vaultA: bigint; vaultB: bigint; platform: bigint; creator: bigint } {
  const fees = q.platformFee + q.creatorFee;
  return aToB
    ? { vaultA: q.inAmount, vaultB: -(q.outAmount + fees), platform: q.platformFee, creator: q.creatorFee }
    : { vaultA: -q.outAmount, vaultB: q.inAmount - fees, platform: q.platformFee, creator: q.creatorFee };
}

function failedAs(q: LaunchlabSwap, status: 'INSUFFICIENT_LIQUIDITY'): ExecuteResult {
  return { quote: { ...q, status }, writes: [] };
}

/**
 * Executes a swap on the pool's accounts. Returns the quote and, when it is OK, the new pool data and the new
 * data of whichever of its vaults and fee vaults are among `accounts`. Throws EngineError
 * `LAUNCHLAB_MISSING_ACCOUNT` when the pool or a config is absent (a localnet setup bug).
 */
export function launchlabExecute(
  pool: PoolDescriptor,
  accounts: ReadonlyMap<string, Uint8Array>,
  aToB: boolean,
  amount: bigint,
  mode: SwapMode,
  clock: ChainClock,
): ExecuteResult {
  const { data: poolData, state } = poolStateForExecute(pool, accounts, clock, buildLaunchlabState, 'LAUNCHLAB_MISSING_ACCOUNT', 'LaunchLab pool or config account missing');
  const q = launchlabQuote(state, aToB, amount, mode);
  if (q.status !== 'OK') return notApplied(q);

  const newPool = new Uint8Array(poolData);
  const dv = new DataView(newPool.buffer);
  // A buy raises real_a (A leaves the curve to the user); a sell lowers it. real_b moves the other way.
  const nextRealA = aToB ? state.realA - q.curveA : state.realA + q.curveA;
  const nextRealB = aToB ? state.realB - q.curveB : state.realB + q.curveB;
  const protocol = dv.getBigUint64(POOL_OFFSET.protocolFee, true) + q.protocolFee;
  if (nextRealA < 0n || nextRealB < 0n || nextRealB > U64_MAX || protocol > U64_MAX) return failedAs(q, 'INSUFFICIENT_LIQUIDITY');
  dv.setBigUint64(POOL_OFFSET.realA, nextRealA, true);
  dv.setBigUint64(POOL_OFFSET.realB, nextRealB, true);
  dv.setBigUint64(POOL_OFFSET.protocolFee, protocol, true);
  if (!aToB && nextRealA >= state.totalSellA) newPool[POOL_OFFSET.status] = POOL_STATUS_MIGRATE;

  const writes: AccountWrite[] = [{ address: pool.address, data: newPool }];
  const keys = launchlabSwapAccounts(poolData);
  const d = launchlabTokenDeltas(q, aToB);
  const moves: [string, bigint][] = [[keys.vaultA, d.vaultA], [keys.vaultB, d.vaultB], [keys.platformFeeVault, d.platform], [keys.creatorFeeVault, d.creator]];
  for (const [address, delta] of moves) {
    const data = accounts.get(address);
    if (!data || delta === 0n) continue;
    const next = tokenAccountAmount(data) + delta;
    // The token program fails a transfer the source cannot cover, or one that overflows the destination.
    if (next < 0n || next > U64_MAX) return failedAs(q, 'INSUFFICIENT_LIQUIDITY');
    writes.push({ address, data: withTokenAmount(data, next) });
  }
  return { quote: q, writes };
}
