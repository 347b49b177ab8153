/**
 * Test and bench support: a synthetic universe for route search benches: `tokenCount` tokens, each with 2-4 pools
 * against SOL, a third also against USDC, a quarter with a token-token pool, deep SOL/USDC/USDT pools; CPMM and
 * AMM v4 pools, prices consistent within 2% (each pool's reserves jittered by up to 2%).
 */
import { SeededRandom } from '../../adapters/testing/seeded-random.js';
import type { AmmV4State } from '../../adapters/raydium-amm-v4/state.js';
import type { CpmmState } from '../../adapters/raydium-cpmm/state.js';
import { addPool, emptyUniverse, type Universe } from './random-universe.js';

/** A CPMM state with plain reserves, trade fee `fee` (per 1e6) and mainnet-like protocol and fund shares. */
export function cpmmState(r0: bigint, r1: bigint, fee: bigint): CpmmState {
  return {
    status: 0, reserve0: r0, reserve1: r1, vault0: r0, vault1: r1, rates: { tradeFeeRate: fee, creatorFeeRate: 0n, protocolFeeRate: 120_000n, fundFeeRate: 40_000n },
    creatorFeeOn: 0, openTime: 0n, poolStatusBits: 0, transferFee0: null, transferFee1: null, transferFeeChanges: false,
  };
}
/** A CPMM state with plain reserves (`r1` defaults to `r0`), a 0.25% trade fee and no protocol, fund or creator share. */
export function plainCpmm(r0: bigint, r1: bigint = r0): CpmmState {
  return {
    status: 0, reserve0: r0, reserve1: r1, vault0: r0, vault1: r1,
    rates: { tradeFeeRate: 2500n, creatorFeeRate: 0n, protocolFeeRate: 0n, fundFeeRate: 0n },
    creatorFeeOn: 0, openTime: 0n, poolStatusBits: 0, transferFee0: null, transferFee1: null, transferFeeChanges: false,
  };
}

/** An AMM v4 state with plain reserves and the default 25/10000 fee. */
export function ammV4State(r0: bigint, r1: bigint): AmmV4State {
  return { status: 0, reserveCoin: r0, reservePc: r1, vaultCoin: r0, vaultPc: r1, swapFeeNumerator: 25n, swapFeeDenominator: 10_000n, ammStatus: 6n, poolOpenTime: 0n };
}

/** The universe and its notable mints. */
export function syntheticRouteUniverse(tokenCount: number): { u: Universe; sol: number; usdc: number; usdt: number; tokens: number[] } {
  const rng = new SeededRandom(42);
  const u = emptyUniverse(rng, 3 + tokenCount);
  const [sol, usdc, usdt] = u.mints as [number, number, number];
  const jitter = (x: bigint): bigint => (x * rng.range(980n, 1020n)) / 1000n;
  const pool = (a: number, b: number, ra: bigint, rb: bigint): void => {
    if (rng.int(2) === 0) addPool(u, rng, 'raydium-cpmm', cpmmState(jitter(ra), jitter(rb), rng.pick([2500n, 10_000n, 400n])), a, b);
    else addPool(u, rng, 'raydium-amm-v4', ammV4State(jitter(ra), jitter(rb)), a, b);
  };
  for (let i = 0; i < 6; i++) pool(sol, usdc, 100_000n * 10n ** 9n, 15_000_000n * 10n ** 6n);
  for (let i = 0; i < 4; i++) pool(sol, usdt, 50_000n * 10n ** 9n, 7_500_000n * 10n ** 6n);
  for (let i = 0; i < 3; i++) pool(usdc, usdt, 5_000_000n * 10n ** 6n, 5_000_000n * 10n ** 6n);
  const tokens = u.mints.slice(3);
  // Consistent prices (pools within 2% of each other): each token is worth lamportsPerToken SOL atoms per 1e6 atoms.
  const lamportsPer1e6 = new Map<number, bigint>(tokens.map((t) => [t, rng.range(10_000n, 100_000_000n)]));
  for (const t of tokens) {
    const p = lamportsPer1e6.get(t)!;
    const n = 2 + rng.int(3);
    for (let i = 0; i < n; i++) {
      const solSide = rng.range(100n, 5000n) * 10n ** 9n;
      pool(t, sol, (solSide * 10n ** 6n) / p, solSide);
    }
    if (rng.int(3) === 0) {
      const usdSide = rng.range(10_000n, 500_000n) * 10n ** 6n;
      pool(t, usdc, (usdSide * 10n ** 3n * 10n ** 6n) / (150n * p), usdSide);
    }
    if (rng.int(4) === 0) {
      const o = rng.pick(tokens);
      if (o !== t) {
        const amountT = rng.range(10n ** 12n, 10n ** 14n);
        pool(t, o, amountT, (amountT * p) / lamportsPer1e6.get(o)!);
      }
    }
  }
  return { u, sol, usdc, usdt, tokens };
}
