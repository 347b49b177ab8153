/**
 * The program's state transition for one swap on the pool's own accounts, for the localnet: the vault amounts
 * move, a WaitingTrade pool past its open time becomes SwapOnly, and `recent_epoch` is stamped. The current
 * program source writes nothing else to the AmmInfo: the `state_data` swap statistics are "Deprecated field. No
 * longer in use or updated." (they were updated by versions before the 2026-07 "Remove openbook dependency").
 * Not modelled here: the user's token accounts and the slippage threshold (the localnet program applies those).
 */
import { notApplied, poolStateForExecute } from '../common/execute-support.js';
import { tokenAccountAmount, withTokenAmount } from '../common/spl-layouts.js';
import type { AccountWrite, ChainClock, ExecuteResult, PoolDescriptor, SwapMode } from '../types.js';
import { AMM_OFFSET, AMM_STATUS } from './layout.js';
import { U64_MAX } from './math.js';
import { ammV4Quote } from './quote.js';
import { buildAmmV4State } from './state.js';

/**
 * Executes a swap on the pool's accounts. Returns the quote and, when it is OK, the new data of the pool and both
 * vaults (input vault + amount in, output vault - amount out). Throws EngineError `AMM_V4_MISSING_ACCOUNT` when one
 * of the pool's accounts is absent (a localnet setup bug).
 */
export function ammV4Execute(
  pool: PoolDescriptor,
  accounts: ReadonlyMap<string, Uint8Array>,
  aToB: boolean,
  amount: bigint,
  mode: SwapMode,
  clock: ChainClock,
): ExecuteResult {
  const [coinKey, pcKey] = pool.dependencies;
  const { data: poolData, state } = poolStateForExecute(pool, accounts, clock, buildAmmV4State, 'AMM_V4_MISSING_ACCOUNT', 'AMM v4 pool or vault account missing', [coinKey, pcKey]);
  const q = ammV4Quote(state, aToB, amount, mode);
  if (q.status !== 'OK') return notApplied(q);

  const inKey = aToB ? coinKey : pcKey;
  const outKey = aToB ? pcKey : coinKey;
  const inVault = accounts.get(inKey)!;
  const outVault = accounts.get(outKey)!;
  const newIn = tokenAccountAmount(inVault) + q.inAmount;
  // The token program's transfer fails on a u64 overflow of the destination.
  if (newIn > U64_MAX) return { quote: { ...q, status: 'INSUFFICIENT_LIQUIDITY' }, writes: [] };
  const newOut = tokenAccountAmount(outVault) - q.outAmount;

  // A copy even when handed a Node Buffer (whose slice() is a view).
  const newPool = new Uint8Array(poolData);
  const dv = new DataView(newPool.buffer, newPool.byteOffset, newPool.byteLength);
  // "WaitingTrade to SwapOnly": the first swap at or after pool_open_time flips the status.
  if (state.ammStatus === AMM_STATUS.WaitingTrade) dv.setBigUint64(AMM_OFFSET.status, AMM_STATUS.SwapOnly, true);
  // amm.recent_epoch = Clock::get()?.epoch at the end of every swap instruction.
  dv.setBigUint64(AMM_OFFSET.recentEpoch, clock.epoch, true);

  const writes: AccountWrite[] = [
    { address: pool.address, data: newPool },
    { address: inKey, data: withTokenAmount(inVault, newIn) },
    { address: outKey, data: withTokenAmount(outVault, newOut) },
  ];
  return { quote: q, writes };
}
