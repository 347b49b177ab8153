/**
 * Test and bench support: a seeded generator of raw AMM v4 pool states (the AmmInfo fields the swap reads and
 * the two vault amounts) covering the corners: reserves from 1 atom to near 2^64, need_take_pnl 0 / partial /
 * above the vault, every AmmStatus incl. unknown ones, open times on both sides of the clock, swap fee fractions
 * 25/10000, 0, large, near 100% and the invalid ones (den 0, num >= den), amounts from one atom to beyond the
 * reserve. Deterministic so that a failing case can be replayed from its index.
 */
import { SeededRandom } from '../../testing/seeded-random.js';

export { SeededRandom };

/** The clock every generated state is evaluated at (unix seconds). */
export const RANDOM_STATE_NOW = 1_800_000_000n;

/** One randomized pool: raw program fields plus one amount per direction and mode. */
export interface RandomAmmV4State {
  readonly status: bigint;
  readonly poolOpenTime: bigint;
  readonly needTakePnlCoin: bigint;
  readonly needTakePnlPc: bigint;
  readonly swapFeeNumerator: bigint;
  readonly swapFeeDenominator: bigint;
  readonly coinVaultAmount: bigint;
  readonly pcVaultAmount: bigint;
  /** Exact-in amounts (coin->pc, pc->coin) and exact-out amounts (coin->pc receives pc, pc->coin receives coin). */
  readonly amountInCoinToPc: bigint;
  readonly amountInPcToCoin: bigint;
  readonly amountOutCoinToPc: bigint;
  readonly amountOutPcToCoin: bigint;
}

const U64_MAX = 0xffff_ffff_ffff_ffffn;

function vaultAmount(rng: SeededRandom): bigint {
  switch (rng.int(10)) {
    case 0: return rng.range(0n, 1000n);
    case 1: return rng.range(U64_MAX - 1000n, U64_MAX);
    default: return rng.magnitude(1, 63);
  }
}

function pnl(rng: SeededRandom, vault: bigint): bigint {
  switch (rng.int(10)) {
    case 0: return vault > 0n ? rng.range(0n, vault) : 0n;
    case 1: return vault >> BigInt(5 + rng.int(30));
    case 2: return rng.int(4) === 0 && vault < U64_MAX - 1000n ? vault + rng.range(1n, 1000n) : 0n;
    default: return 0n;
  }
}

/** A fee fraction: mostly the default, often other valid ones, sometimes one the program panics on. */
export function randomFee(rng: SeededRandom): [num: bigint, den: bigint] {
  switch (rng.int(16)) {
    case 0: case 1: case 2: case 3: case 4: return [25n, 10_000n];
    case 5: return [0n, 10_000n];
    case 6: return [0n, rng.range(1n, U64_MAX)];
    case 7: return [rng.pick([1n, 5n, 30n, 100n, 1000n, 5000n]), 10_000n];
    case 8: { const den = rng.range(1n, 1_000_000n); return [rng.range(0n, den - 1n), den]; }
    case 9: { const den = rng.range(2n, U64_MAX); return [den - 1n, den]; }
    case 10: { const den = rng.magnitude(1, 64); return [rng.range(0n, den - 1n), den]; }
    case 11: return [9_999n, 10_000n];
    case 12: return [rng.range(0n, 100n), 0n];
    case 13: { const den = rng.range(1n, 10_000n); return [den, den]; }
    case 14: { const den = rng.range(1n, 10_000n); return [den + rng.range(1n, 1000n), den]; }
    default: return [rng.range(0n, 9_999n), 10_000n];
  }
}

function status(rng: SeededRandom): bigint {
  const r = rng.int(20);
  if (r < 10) return 6n;
  if (r < 13) return 1n;
  if (r < 16) return 7n;
  if (r === 19) return rng.pick([8n, 100n]);
  return rng.pick([0n, 2n, 3n, 4n, 5n]);
}

function amountFor(rng: SeededRandom, reserveRef: bigint): bigint {
  switch (rng.int(12)) {
    case 0: return 0n;
    case 1: return 1n;
    case 2: return reserveRef;
    case 3: return reserveRef > 1n ? reserveRef - 1n : 1n;
    case 4: return reserveRef * 2n > U64_MAX ? U64_MAX : reserveRef * 2n;
    case 5: return rng.magnitude(0, 64);
    default: {
      const v = reserveRef >> BigInt(rng.int(41));
      return v > 0n ? rng.range(1n, v) : 1n;
    }
  }
}

/** `count` states from the stream of `seed`; `feeOverride` pins the fee fraction (the SDK comparison). */
export function randomAmmV4States(seed: number, count: number, feeOverride?: readonly [bigint, bigint]): RandomAmmV4State[] {
  const rng = new SeededRandom(seed);
  const out: RandomAmmV4State[] = [];
  for (let i = 0; i < count; i++) {
    const coinVaultAmount = vaultAmount(rng);
    const pcVaultAmount = vaultAmount(rng);
    const needTakePnlCoin = pnl(rng, coinVaultAmount);
    const needTakePnlPc = pnl(rng, pcVaultAmount);
    const [num, den] = feeOverride ?? randomFee(rng);
    const st = status(rng);
    const openDelta = rng.range(0n, 100_000n);
    const poolOpenTime = rng.int(2) === 0 ? RANDOM_STATE_NOW - openDelta : RANDOM_STATE_NOW + openDelta;
    const rc = coinVaultAmount > needTakePnlCoin ? coinVaultAmount - needTakePnlCoin : 1n;
    const rp = pcVaultAmount > needTakePnlPc ? pcVaultAmount - needTakePnlPc : 1n;
    out.push({
      status: st,
      poolOpenTime,
      needTakePnlCoin,
      needTakePnlPc,
      swapFeeNumerator: num,
      swapFeeDenominator: den,
      coinVaultAmount,
      pcVaultAmount,
      amountInCoinToPc: amountFor(rng, rc),
      amountInPcToCoin: amountFor(rng, rp),
      amountOutCoinToPc: amountFor(rng, rp),
      amountOutPcToCoin: amountFor(rng, rc),
    });
  }
  return out;
}
