/**
 * Test support only: an independent integer port of the AMM v4 program's swap instructions, written apart
 * from `math.ts`, following `processor.rs` (process_swap_base_in / process_swap_base_out, 2026-07 source) and
 * `math.rs` line by line: the status and open-time checks, calc_total_without_take_pnl_no_orderbook, the
 * U128 checked operations (`unwrap()` on None is a panic), `as_u64()` (panics above u64), and the checks after
 * the math in the program's order. It is the differential reference for every fee fraction; the SDK is only
 * a reference at 25/10000 (it hardcodes that fee).
 */

const U64_MAX = (1n << 64n) - 1n;
const U128_MAX = (1n << 128n) - 1n;

/** A Rust panic (`unwrap()` on None, `as_u64()` overflow, `unreachable!()`). */
class Panic extends Error {}

/** `AmmError` variants the swap instructions return (error.rs), plus a panic. */
export type PortError = 'InvalidStatus' | 'NotAllowed' | 'CheckedSubOverflow' | 'InsufficientFunds' | 'ExceededSlippage' | 'InvalidInput' | 'Panic' | 'TokenOverflow';

/** What the port needs of the AmmInfo, the vaults, the user and the clock. */
export interface PortInput {
  readonly status: bigint;
  readonly poolOpenTime: bigint;
  readonly needTakePnlCoin: bigint;
  readonly needTakePnlPc: bigint;
  readonly swapFeeNumerator: bigint;
  readonly swapFeeDenominator: bigint;
  readonly coinVaultAmount: bigint;
  readonly pcVaultAmount: bigint;
  readonly sameMint: boolean;
  readonly unixTimestamp: bigint;
  /** Coin2PC when true. */
  readonly coinToPc: boolean;
  readonly userSourceAmount: bigint;
}

/** Outcome of the port. */
export type PortResult =
  | { readonly ok: true; readonly amountIn: bigint; readonly amountOut: bigint; readonly newStatus: bigint }
  | { readonly ok: false; readonly error: PortError };

// U128 checked operations of the `uint` crate, unwrapped as the program does.
const u128 = (v: bigint): bigint => { if (v < 0n || v > U128_MAX) throw new Panic(); return v; };
const checkedMul = (a: bigint, b: bigint): bigint => u128(a * b);
const checkedAdd = (a: bigint, b: bigint): bigint => u128(a + b);
const checkedSub = (a: bigint, b: bigint): bigint => { if (a < b) throw new Panic(); return a - b; };
const checkedDiv = (a: bigint, b: bigint): bigint => { if (b === 0n) throw new Panic(); return a / b; };
/** `impl CheckedCeilDiv for U128` (math.rs, after "Fix: update checked_ceil_div func"). */
const checkedCeilDiv = (a: bigint, b: bigint): bigint => {
  let quotient = checkedDiv(a, b);
  const remainder = a % b; // checked_rem: b != 0 here, checked_div already unwrapped
  if (remainder !== 0n) quotient = checkedAdd(quotient, 1n);
  return quotient;
};
const asU64 = (v: bigint): bigint => { if (v > U64_MAX) throw new Panic(); return v; };

/** `AmmStatus::from_u64(status).swap_permission()`; unknown values hit `unreachable!()`. */
function swapPermission(status: bigint): boolean {
  if (status > 7n) throw new Panic();
  return status === 1n || status === 6n || status === 7n;
}

/** Shared prologue of both swap instructions; returns (total_pc, total_coin, status after the open check). */
function prologue(p: PortInput): { totalPc: bigint; totalCoin: bigint; status: bigint } | PortError {
  // AmmInfo::load_mut_checked
  if (p.status === 0n) return 'InvalidStatus';
  if (p.sameMint) return 'NotAllowed';
  let status = p.status;
  if (!swapPermission(status)) return 'InvalidStatus';
  else if (status === 7n) {
    if (p.unixTimestamp < p.poolOpenTime) return 'InvalidStatus';
    status = 6n;
  }
  // calc_total_without_take_pnl_no_orderbook: u64 checked_sub -> CheckedSubOverflow
  if (p.pcVaultAmount < p.needTakePnlPc) return 'CheckedSubOverflow';
  const totalPc = p.pcVaultAmount - p.needTakePnlPc;
  if (p.coinVaultAmount < p.needTakePnlCoin) return 'CheckedSubOverflow';
  const totalCoin = p.coinVaultAmount - p.needTakePnlCoin;
  return { totalPc, totalCoin, status };
}

/** Token::transfer(user source -> input vault) after the checks: the destination's checked_add fails above u64. */
function transferOverflows(p: PortInput, amountIn: bigint): boolean {
  return (p.coinToPc ? p.coinVaultAmount : p.pcVaultAmount) + amountIn > U64_MAX;
}

/** process_swap_base_in. */
export function portSwapBaseIn(p: PortInput, amountIn: bigint, minimumAmountOut: bigint): PortResult {
  try {
    const pro = prologue(p);
    if (typeof pro === 'string') return { ok: false, error: pro };
    const { totalPc, totalCoin } = pro;
    if (p.userSourceAmount < amountIn) return { ok: false, error: 'InsufficientFunds' };
    const swapFee = checkedCeilDiv(checkedMul(amountIn, p.swapFeeNumerator), p.swapFeeDenominator);
    const swapInAfterDeductFee = checkedSub(amountIn, swapFee);
    // Calculator::swap_token_amount_base_in
    let amountOut: bigint;
    if (p.coinToPc) {
      const denominator = checkedAdd(totalCoin, swapInAfterDeductFee);
      amountOut = checkedDiv(checkedMul(totalPc, swapInAfterDeductFee), denominator);
    } else {
      const denominator = checkedAdd(totalPc, swapInAfterDeductFee);
      amountOut = checkedDiv(checkedMul(totalCoin, swapInAfterDeductFee), denominator);
    }
    const swapAmountOut = asU64(amountOut);
    if (swapAmountOut < minimumAmountOut) return { ok: false, error: 'ExceededSlippage' };
    if (swapAmountOut === 0n || amountIn === 0n) return { ok: false, error: 'InvalidInput' };
    if (p.coinToPc ? swapAmountOut >= totalPc : swapAmountOut >= totalCoin) return { ok: false, error: 'InsufficientFunds' };
    if (transferOverflows(p, amountIn)) return { ok: false, error: 'TokenOverflow' };
    return { ok: true, amountIn, amountOut: swapAmountOut, newStatus: pro.status };
  } catch (e) {
    if (e instanceof Panic) return { ok: false, error: 'Panic' };
    throw e;
  }
}

/** process_swap_base_out. */
export function portSwapBaseOut(p: PortInput, maxAmountIn: bigint, amountOut: bigint): PortResult {
  try {
    const pro = prologue(p);
    if (typeof pro === 'string') return { ok: false, error: pro };
    const { totalPc, totalCoin } = pro;
    // Calculator::swap_token_amount_base_out
    let swapInBeforeAddFee: bigint;
    if (p.coinToPc) {
      const denominator = checkedSub(totalPc, amountOut);
      swapInBeforeAddFee = checkedCeilDiv(checkedMul(totalCoin, amountOut), denominator);
    } else {
      const denominator = checkedSub(totalCoin, amountOut);
      swapInBeforeAddFee = checkedCeilDiv(checkedMul(totalPc, amountOut), denominator);
    }
    const swapInAfterAddFee = asU64(
      checkedCeilDiv(
        checkedMul(swapInBeforeAddFee, p.swapFeeDenominator),
        checkedSub(p.swapFeeDenominator, p.swapFeeNumerator),
      ),
    );
    if (p.userSourceAmount < swapInAfterAddFee) return { ok: false, error: 'InsufficientFunds' };
    if (maxAmountIn < swapInAfterAddFee) return { ok: false, error: 'ExceededSlippage' };
    if (swapInAfterAddFee === 0n || amountOut === 0n) return { ok: false, error: 'InvalidInput' };
    if (p.coinToPc ? amountOut >= totalPc : amountOut >= totalCoin) return { ok: false, error: 'InsufficientFunds' };
    if (transferOverflows(p, swapInAfterAddFee)) return { ok: false, error: 'TokenOverflow' };
    return { ok: true, amountIn: swapInAfterAddFee, amountOut, newStatus: pro.status };
  } catch (e) {
    if (e instanceof Panic) return { ok: false, error: 'Panic' };
    throw e;
  }
}
