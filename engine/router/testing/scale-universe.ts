/**
 * Bench support: a universe at mainnet-like scale (20,000+ pools) with pools of every registered DEX, shaped like
 * Solana's: most tokens trade against SOL (constant-product pools of CPMM, AMM v4 and PumpSwap, and bonding curves
 * of pump.fun, LaunchLab and Meteora DBC), a third also against USDC, some token-token pools, and deep
 * SOL/USDC/USDT pools. Constant-product pools are priced consistently (within 2%); curves carry their generators'
 * random states, as launches do.
 */
import { SeededRandom } from '../../adapters/testing/seeded-random.js';
import type { PumpswapState } from '../../adapters/pumpswap/state.js';
import { PUMPSWAP_STATUS_OK } from '../../adapters/pumpswap/state.js';
import type { DexId } from '../../dex-ids.js';
import { addPool, emptyUniverse, randomState, REGISTERED_DEXES, type Universe } from './random-universe.js';
import { ammV4State, cpmmState } from './synthetic-universe.js';

/** A universe at scale and its notable mints. */
export interface ScaleUniverse {
  readonly u: Universe;
  readonly sol: number;
  readonly usdc: number;
  readonly usdt: number;
  readonly tokens: number[];
  /** Pools per DEX. */
  readonly byDex: Record<string, number>;
}

const CURVES: readonly DexId[] = ['pumpfun', 'raydium-launchlab', 'meteora-dbc'];

function pumpswapState(base: bigint, quote: bigint): PumpswapState {
  return {
    status: PUMPSWAP_STATUS_OK, baseReserve: base, quoteReserve: quote, quoteVault: quote,
    fees: { lpFeeBps: 20n, protocolFeeBps: 5n, creatorFeeBps: 5n }, disableFlags: 0, schedule: 1, tierIndex: 0,
  };
}

/** About `poolTarget` pools (at least) over tokens that each hold 2-5 pools. Deterministic. */
export function scaleUniverse(poolTarget: number, seed = 7): ScaleUniverse {
  const rng = new SeededRandom(seed);
  const tokenCount = Math.ceil(poolTarget / 3.2);
  const u = emptyUniverse(rng, 3 + tokenCount, true, poolTarget + tokenCount + 64);
  const [sol, usdc, usdt] = u.mints as [number, number, number];
  const byDex: Record<string, number> = {};
  const count = (d: DexId): void => { byDex[d] = (byDex[d] ?? 0) + 1; };
  const jitter = (x: bigint): bigint => (x * rng.range(980n, 1020n)) / 1000n;
  const cp = (a: number, b: number, ra: bigint, rb: bigint): void => {
    const k = rng.int(3);
    const dex: DexId = k === 0 ? 'raydium-cpmm' : k === 1 ? 'raydium-amm-v4' : 'pumpswap';
    const [x, y] = [jitter(ra), jitter(rb)];
    const state = dex === 'raydium-cpmm' ? cpmmState(x, y, rng.pick([2500n, 10_000n, 400n])) : dex === 'raydium-amm-v4' ? ammV4State(x, y) : pumpswapState(x, y);
    addPool(u, rng, dex, state, a, b);
    count(dex);
  };
  for (let i = 0; i < 8; i++) cp(sol, usdc, 100_000n * 10n ** 9n, 15_000_000n * 10n ** 6n);
  for (let i = 0; i < 5; i++) cp(sol, usdt, 50_000n * 10n ** 9n, 7_500_000n * 10n ** 6n);
  for (let i = 0; i < 4; i++) cp(usdc, usdt, 5_000_000n * 10n ** 6n, 5_000_000n * 10n ** 6n);
  const tokens = u.mints.slice(3);
  const lamportsPer1e6 = new Map<number, bigint>(tokens.map((t) => [t, rng.range(10_000n, 100_000_000n)]));
  for (const t of tokens) {
    if (u.pools.length >= poolTarget) break;
    const p = lamportsPer1e6.get(t)!;
    // A fifth of the tokens are launches: one bonding curve against SOL, sometimes graduated to a pool too.
    if (rng.int(5) === 0) {
      const dex = rng.pick(CURVES);
      addPool(u, rng, dex, randomState(rng, dex), t, sol);
      count(dex);
      if (rng.int(2) === 0) continue;
    }
    const n = 2 + rng.int(3);
    for (let i = 0; i < n; i++) {
      const solSide = rng.range(100n, 5000n) * 10n ** 9n;
      cp(t, sol, (solSide * 10n ** 6n) / p, solSide);
    }
    if (rng.int(3) === 0) {
      const usdSide = rng.range(10_000n, 500_000n) * 10n ** 6n;
      cp(t, usdc, (usdSide * 10n ** 3n * 10n ** 6n) / (150n * p), usdSide);
    }
    if (rng.int(4) === 0) {
      const o = rng.pick(tokens);
      if (o !== t) {
        const amountT = rng.range(10n ** 12n, 10n ** 14n);
        cp(t, o, amountT, (amountT * p) / lamportsPer1e6.get(o)!);
      }
    }
  }
  for (const d of REGISTERED_DEXES) if (!byDex[d]) throw new Error(`scale universe has no ${d} pool`);
  return { u, sol, usdc, usdt, tokens, byDex };
}
