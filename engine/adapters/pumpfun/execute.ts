/**
 * The program's state transition for one trade on the curve account, for the localnet: virtual and real
 * reserves move, `complete` is set when the real token reserves reach 0. Lamports and tokens (user, curve,
 * curve token account, fee recipient, creator vault) are moved by the localnet program around this, as the
 * program moves them; the quote it returns says by how much.
 */
import { accountView as view, poolStateForExecute } from '../common/execute-support.js';
import type { AccountWrite, ChainClock, ExecuteResult, PoolDescriptor, SwapMode } from '../types.js';
import { CURVE_OFFSET } from './layout.js';
import type { PumpSwap } from './math.js';
import { pumpfunQuote } from './quote.js';
import { buildPumpfunState } from './state.js';

/** New curve data after an OK trade (a copy; the input is never changed, also when it is a Node Buffer). */
export function curveAfter(curveData: Uint8Array, q: PumpSwap): Uint8Array {
  const out = new Uint8Array(curveData);
  const dv = view(out);
  const add = (offset: number, delta: bigint): void => dv.setBigUint64(offset, dv.getBigUint64(offset, true) + delta, true);
  const sign = q.isBuy ? -1n : 1n;
  add(CURVE_OFFSET.virtualTokenReserves, sign * q.tokenAmount);
  add(CURVE_OFFSET.realTokenReserves, sign * q.tokenAmount);
  add(CURVE_OFFSET.virtualQuoteReserves, -sign * q.curveQuote);
  add(CURVE_OFFSET.realQuoteReserves, -sign * q.curveQuote);
  if (q.isBuy && dv.getBigUint64(CURVE_OFFSET.realTokenReserves, true) === 0n) out[CURVE_OFFSET.complete] = 1;
  return out;
}

/**
 * Executes a trade on the curve. Returns the quote (a {@link PumpSwap}) and, when it is OK, the new curve data.
 * Throws EngineError `PUMPFUN_MISSING_ACCOUNT` when the curve or a dependency is absent (a localnet setup bug).
 */
export function pumpfunExecute(
  pool: PoolDescriptor,
  accounts: ReadonlyMap<string, Uint8Array>,
  aToB: boolean,
  amount: bigint,
  mode: SwapMode,
  clock: ChainClock,
): ExecuteResult & { readonly quote: PumpSwap } {
  const { data: curveData, state } = poolStateForExecute(pool, accounts, clock, buildPumpfunState, 'PUMPFUN_MISSING_ACCOUNT', 'pump.fun curve, Global, FeeConfig or mint missing');
  const q = pumpfunQuote(state, aToB, amount, mode);
  if (q.status !== 'OK') return { quote: q, writes: [] };
  const writes: AccountWrite[] = [{ address: pool.address, data: curveAfter(curveData, q) }];
  return { quote: q, writes };
}
