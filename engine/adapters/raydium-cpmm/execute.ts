/**
 * The program's state transition for one swap (what swap_base_input / swap_base_output do to the pool's
 * own accounts), for the localnet: vault amounts move, fee accumulators grow, `recent_epoch` is stamped.
 * Not modelled: the observation (oracle) account, Token-2022 transfer fees, the user's token accounts and
 * the slippage threshold (the localnet's ledger applies those around this).
 */
import { EngineError } from '../../errors.js';
import { accountView as view, notApplied, poolStateForExecute } from '../common/execute-support.js';
import { tokenAccountAmount, withTokenAmount } from '../common/spl-layouts.js';
import { transferFee } from '../common/transfer-fee.js';
import type { AccountWrite, ChainClock, ExecuteResult, PoolDescriptor, SwapMode } from '../types.js';
import { POOL_OFFSET } from './layout.js';
import { type CpmmSwap, U64_MAX } from './math.js';
import { cpmmQuote } from './quote.js';
import { buildCpmmState } from './state.js';

function failedAs(q: CpmmSwap, status: 'INSUFFICIENT_LIQUIDITY' | 'INACTIVE'): ExecuteResult {
  return notApplied({ ...q, status });
}

/**
 * Executes a swap on the pool's accounts. Returns the quote and, when it is OK, the new data of the pool and
 * both vaults (input vault + amount in, output vault - amount out). Throws EngineError `CPMM_MISSING_ACCOUNT`
 * when one of the pool's accounts is absent (a localnet setup bug).
 */
export function cpmmExecute(
  pool: PoolDescriptor,
  accounts: ReadonlyMap<string, Uint8Array>,
  aToB: boolean,
  amount: bigint,
  mode: SwapMode,
  clock: ChainClock,
): ExecuteResult {
  const [, vault0Key, vault1Key] = pool.dependencies;
  const { data: poolData, state } = poolStateForExecute(pool, accounts, clock, buildCpmmState, 'CPMM_MISSING_ACCOUNT', 'CPMM pool, config or vault account missing', [vault0Key, vault1Key]);
  const q = cpmmQuote(state, aToB, amount, mode);
  if (q.status !== 'OK') return notApplied(q);

  const inVaultKey = aToB ? vault0Key : vault1Key;
  const outVaultKey = aToB ? vault1Key : vault0Key;
  const inVault = accounts.get(inVaultKey)!;
  const outVault = accounts.get(outVaultKey)!;
  // What the vaults see: the user's transfer less the input mint's transfer fee (withheld by the token program),
  // and the vault's transfer out (the user receives it less the output mint's fee).
  const feeIn = aToB ? state.transferFee0 : state.transferFee1;
  // The quote refused a credit that takes the vault above u64 (failure TokenOverflow), so this fits.
  const newIn = tokenAccountAmount(inVault) + q.transferIn - transferFee(feeIn, q.transferIn);
  const newOut = tokenAccountAmount(outVault) - q.transferOut;

  // require_gte!(constant_after, constant_before) on the curve reserves, as the program checks it.
  const rin = aToB ? state.reserve0 : state.reserve1;
  const rout = aToB ? state.reserve1 : state.reserve0;
  if ((rin + q.swappedIn) * (rout - q.swappedOut) < rin * rout) {
    throw new EngineError('CPMM_INVARIANT', 'constant product decreased', { pool: pool.address });
  }

  // update_fees: protocol and fund fees accrue on the input token; the creator fee on its own side.
  // A copy even when handed a Node Buffer (whose slice() is a view).
  const newPool = new Uint8Array(poolData);
  const dv = view(newPool);
  const side = (zero: number, one: number, tokenZero: boolean): number => (tokenZero ? zero : one);
  const add = (offset: number, delta: bigint): boolean => {
    const v = dv.getBigUint64(offset, true) + delta;
    if (v > U64_MAX) return false; // checked_add().unwrap() panics in the program
    dv.setBigUint64(offset, v, true);
    return true;
  };
  const creatorOnToken0 = q.creatorFeeOnInput ? aToB : !aToB;
  const ok = add(side(POOL_OFFSET.protocolFeesToken0, POOL_OFFSET.protocolFeesToken1, aToB), q.protocolFee)
    && add(side(POOL_OFFSET.fundFeesToken0, POOL_OFFSET.fundFeesToken1, aToB), q.fundFee)
    && add(side(POOL_OFFSET.creatorFeesToken0, POOL_OFFSET.creatorFeesToken1, creatorOnToken0), q.creatorFee);
  if (!ok) return failedAs(q, 'INACTIVE');
  // pool_state.recent_epoch = Clock::get()?.epoch at the end of both swap instructions.
  dv.setBigUint64(POOL_OFFSET.recentEpoch, clock.epoch, true);

  const writes: AccountWrite[] = [
    { address: pool.address, data: newPool },
    { address: inVaultKey, data: withTokenAmount(inVault, newIn) },
    { address: outVaultKey, data: withTokenAmount(outVault, newOut) },
  ];
  return { quote: q, writes };
}
