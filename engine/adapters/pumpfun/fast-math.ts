/**
 * The f64 fast path of the pump.fun curve math: `buy` (exact tokens out), `buy_exact_sol_in` and `sell` (exact
 * tokens in) of `math.ts`, step for step, on f64 integers, for trades whose every input, intermediate and result is
 * an integer below 2^53 (mainnet curves: virtual token reserves about 1.07e15, virtual SOL about 3e10 to 1.2e11).
 * Products such as `tokens * virtualQuote` reach 2^106 and are divided exactly by `common/exact-f64.ts` (a
 * two-product and a checked quotient, never an estimate). Every step that leaves that range, and every trade that
 * does not succeed, returns null: the caller then runs the bigint port, so rejections keep one implementation.
 * With every value below 2^53 the program's u64 overflow checks cannot fire (sums stay below 2^54). Reserves and
 * rates are u64 account fields (a state is built from the accounts or from u64 record words); amounts are checked
 * against u64 first (`u64F64` reads a bigint modulo 2^64).
 */
import { NO_F64, TWO53, mulDivCeil, mulDivFloor, toBig, u64F64 } from '../common/exact-f64.js';
import type { TradeFeeBps } from './fees.js';
import type { CurveReserves, PumpSwap } from './math.js';

const BPS = 10_000;
const U64_MAX = 0xffff_ffff_ffff_ffffn;

/** The bigint of a non-negative f64 integer result, reusing `0n`. */
function big(x: number): bigint {
  return x === 0 ? 0n : toBig(x);
}

/** ceil(x * bps / 1e4) (`feeOf`), NO_F64 past 2^53. */
function feeOf(x: number, bps: number): number {
  return bps === 0 ? 0 : mulDivCeil(x, bps, BPS);
}

/**
 * The OK buy of `n` tokens (0 < n; n, the reserves and the rates f64 below 2^53; the caller has checked the real
 * quote reserve too), or null when a value leaves the range or the curve cannot give n.
 */
function buyTokensF64(n: number, nBig: bigint | null, vT: number, vQ: number, p: number, c: number): PumpSwap | null {
  if (n >= vT) return null;
  const cost = mulDivFloor(n, vQ, vT - n);
  if (cost === NO_F64 || cost + 1 >= TWO53) return null;
  const costPlus = cost + 1;
  const protocolFee = feeOf(costPlus, p);
  const creatorFee = feeOf(costPlus, c);
  if (protocolFee === NO_F64 || creatorFee === NO_F64) return null;
  const fee = protocolFee + creatorFee;
  const total = costPlus + fee;
  if (total >= TWO53) return null;
  const out = nBig ?? toBig(n);
  const protocolBig = big(protocolFee);
  const creatorBig = creatorFee === protocolFee ? protocolBig : big(creatorFee);
  return {
    status: 'OK', inAmount: toBig(total), outAmount: out, feeAmount: creatorFee === 0 ? protocolBig : protocolFee === 0 ? creatorBig : toBig(fee),
    feeOnInput: true, isBuy: true, tokenAmount: out, curveQuote: toBig(costPlus), protocolFee: protocolBig, creatorFee: creatorBig,
  };
}

/** `buyExactTokensOut` on f64 integers; null where it does not apply (see the file header). */
export function buyExactTokensOutF64(tokens: bigint, r: CurveReserves, fees: TradeFeeBps): PumpSwap | null {
  if (tokens > U64_MAX) return null;
  const t = u64F64(tokens);
  const realT = u64F64(r.realTokenReserves);
  const vT = u64F64(r.virtualTokenReserves);
  const vQ = u64F64(r.virtualQuoteReserves);
  const p = u64F64(fees.protocolFeeBps);
  const c = u64F64(fees.creatorFeeBps);
  // The buy adds its cost to both quote reserves (u64 on chain): with both below 2^53 the sums cannot overflow.
  if (t <= 0 || realT === NO_F64 || vT === NO_F64 || vQ === NO_F64 || p === NO_F64 || c === NO_F64 || u64F64(r.realQuoteReserves) === NO_F64) return null;
  const n = t < realT ? t : realT;
  if (n === 0) return null;
  return buyTokensF64(n, n === t ? tokens : r.realTokenReserves, vT, vQ, p, c);
}

/** `buyExactQuoteIn` (`buy_exact_sol_in`) on f64 integers; null where it does not apply (see the file header). */
export function buyExactQuoteInF64(spendable: bigint, r: CurveReserves, fees: TradeFeeBps): PumpSwap | null {
  if (spendable > U64_MAX) return null;
  const s = u64F64(spendable);
  const realT = u64F64(r.realTokenReserves);
  const vT = u64F64(r.virtualTokenReserves);
  const vQ = u64F64(r.virtualQuoteReserves);
  const p = u64F64(fees.protocolFeeBps);
  const c = u64F64(fees.creatorFeeBps);
  if (s <= 0 || realT === NO_F64 || vT === NO_F64 || vQ === NO_F64 || p === NO_F64 || c === NO_F64 || u64F64(r.realQuoteReserves) === NO_F64) return null;
  const den = BPS + p + c;
  if (den >= TWO53) return null;
  // exactSolInNet: floor(A * 1e4 / (1e4 + bps)), less any excess of its own fees over the budget.
  let net = mulDivFloor(s, BPS, den);
  if (net === NO_F64) return null;
  const pn = feeOf(net, p);
  const cn = feeOf(net, c);
  if (pn === NO_F64 || cn === NO_F64) return null;
  const total = net + pn + cn;
  if (total >= TWO53) return null;
  if (total > s) net -= total - s;
  if (net <= 1) return null;
  const x = net - 1;
  if (vQ + x >= TWO53) return null;
  let tokens = mulDivFloor(x, vT, vQ + x);
  if (tokens === NO_F64) return null;
  let tokensBig: bigint | null = null;
  if (tokens > realT) {
    tokens = realT;
    tokensBig = r.realTokenReserves;
  }
  if (tokens === 0) return null;
  return buyTokensF64(tokens, tokensBig, vT, vQ, p, c);
}

/** `sellExactTokensIn` on f64 integers; null where it does not apply (see the file header). */
export function sellExactTokensInF64(tokens: bigint, r: CurveReserves, fees: TradeFeeBps): PumpSwap | null {
  if (tokens > U64_MAX) return null;
  const t = u64F64(tokens);
  const vT = u64F64(r.virtualTokenReserves);
  const vQ = u64F64(r.virtualQuoteReserves);
  const realT = u64F64(r.realTokenReserves);
  const realQ = u64F64(r.realQuoteReserves);
  const p = u64F64(fees.protocolFeeBps);
  const c = u64F64(fees.creatorFeeBps);
  if (t <= 0 || vT === NO_F64 || vQ === NO_F64 || realT === NO_F64 || realQ === NO_F64 || p === NO_F64 || c === NO_F64) return null;
  // vT + t and realT + t stay below 2^54 < 2^64: the program's u64 checks pass.
  if (vT + t >= TWO53) return null;
  const sol = mulDivFloor(t, vQ, vT + t);
  if (sol === NO_F64) return null;
  const protocolFee = feeOf(sol, p);
  const creatorFee = feeOf(sol, c);
  if (protocolFee === NO_F64 || creatorFee === NO_F64) return null;
  const out = sol - protocolFee - creatorFee;
  if (out <= 0 || sol > realQ) return null;
  const protocolBig = big(protocolFee);
  const creatorBig = creatorFee === protocolFee ? protocolBig : big(creatorFee);
  return {
    status: 'OK', inAmount: tokens, outAmount: toBig(out), feeAmount: creatorFee === 0 ? protocolBig : protocolFee === 0 ? creatorBig : big(protocolFee + creatorFee),
    feeOnInput: false, isBuy: false, tokenAmount: tokens, curveQuote: toBig(sol), protocolFee: protocolBig, creatorFee: creatorBig,
  };
}

