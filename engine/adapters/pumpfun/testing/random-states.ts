/**
 * Test and bench support: a seeded generator of pump.fun curve setups (Global, FeeConfig or none, curve in any
 * layout version) that covers the corners: fresh to nearly complete curves, market caps exactly at tier
 * boundaries, creator set or unset, per-curve creator fee overrides, mayhem mode with a real supply, SOL /
 * wrapped SOL / USDC / exotic quote mints, and odd reserves. Deterministic: replay a failure from its index.
 */
import { SeededRandom } from '../../testing/seeded-random.js';
import type { FeeConfigFields, FeeSchedule, FeeTier } from '../fee-config.js';
import { FEE_CONFIG_CURRENT_SIZE, FEE_CONFIG_INITIALIZE_SIZE, FEE_CONFIG_POST_STABLE_SIZE } from '../fee-config.js';
import { ONE_BILLION_SUPPLY, STABLE_QUOTE_MINTS, marketCap } from '../fees.js';
import { BONDING_CURVE_SIZES, type BondingCurveFields, NATIVE_MINT, ZERO_KEY } from '../layout.js';

export { SeededRandom };

/** Mainnet initial curve parameters (Global). */
export const INITIAL_VIRTUAL_TOKEN = 1_073_000_000_000_000n;
export const INITIAL_VIRTUAL_SOL = 30_000_000_000n;
export const INITIAL_REAL_TOKEN = 793_100_000_000_000n;

/** The Global fields the math reads, plus the curve setup. */
export interface RandomPumpSetup {
  readonly global: { feeBasisPoints: bigint; creatorFeeBasisPoints: bigint; creatorFeeConfigurable: boolean };
  readonly feeConfig: FeeConfigFields | null;
  /** Layout length of the FeeConfig account (one of the three versions). */
  readonly feeConfigSize: number;
  readonly curve: BondingCurveFields;
  /** Layout length of the curve account; fields it lacks are zero in `curve`. */
  readonly curveSize: number;
  /** Mint supply (the real one for mayhem curves; 1e15 otherwise, as pump mints are). */
  readonly mintSupply: bigint;
  readonly buyQuoteIn: bigint;
  readonly buyTokensOut: bigint;
  readonly sellTokensIn: bigint;
  readonly sellQuoteOut: bigint;
}

const key = (rng: SeededRandom): string => {
  const b = new Uint8Array(32);
  for (let i = 0; i < 32; i += 8) new DataView(b.buffer).setBigUint64(i, rng.nextU64(), true);
  let s = 0n;
  for (const x of b) s = (s << 8n) | BigInt(x);
  const ALPHA = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let out = '';
  while (s > 0n) { out = ALPHA[Number(s % 58n)]! + out; s /= 58n; }
  for (const x of b) { if (x !== 0) break; out = '1' + out; }
  return out;
};

function fees(rng: SeededRandom): FeeSchedule {
  return {
    lpFeeBps: rng.pick([0n, 0n, 20n, rng.range(0n, 100n)]),
    protocolFeeBps: rng.pick([95n, 93n, 5n, 0n, rng.range(0n, 300n), rng.range(0n, 2000n)]),
    creatorFeeBps: rng.pick([30n, 95n, 0n, rng.range(0n, 300n)]),
  };
}

function tiers(rng: SeededRandom, n: number): FeeTier[] {
  const out: FeeTier[] = [];
  let t = rng.pick([0n, 0n, rng.range(1n, 10_000_000_000n)]);
  for (let i = 0; i < n; i++) {
    out.push({ marketCapThreshold: t, fees: fees(rng) });
    t += rng.range(1n, 2_000_000_000_000n);
  }
  return out;
}

function reserves(rng: SeededRandom): Pick<BondingCurveFields, 'virtualTokenReserves' | 'virtualQuoteReserves' | 'realTokenReserves' | 'realQuoteReserves'> {
  if (rng.int(8) === 0) {
    // Odd but consistent reserves (real < virtual), magnitudes far from mainnet's.
    const vT = rng.magnitude(8, 62) + 2n;
    const vQ = rng.magnitude(4, 62) + 1n;
    return { virtualTokenReserves: vT, virtualQuoteReserves: vQ, realTokenReserves: rng.range(1n, vT - 1n), realQuoteReserves: rng.range(0n, vQ) };
  }
  // The mainnet curve after `sold` tokens: constant product k = vT0 * vS0.
  const sold = rng.pick([0n, 1n, INITIAL_REAL_TOKEN - 1n, INITIAL_REAL_TOKEN - rng.range(1n, INITIAL_REAL_TOKEN / 20n), rng.range(0n, INITIAL_REAL_TOKEN - 1n)]);
  const vT = INITIAL_VIRTUAL_TOKEN - sold;
  const vQ = (INITIAL_VIRTUAL_TOKEN * INITIAL_VIRTUAL_SOL + vT - 1n) / vT;
  return { virtualTokenReserves: vT, virtualQuoteReserves: vQ, realTokenReserves: INITIAL_REAL_TOKEN - sold, realQuoteReserves: vQ - INITIAL_VIRTUAL_SOL };
}

function amount(rng: SeededRandom, ref: bigint): bigint {
  switch (rng.int(10)) {
    case 0: return rng.range(1n, 3n);
    case 1: return ref > 0n ? ref : 1n;
    case 2: return ref + rng.range(1n, ref + 1n);
    case 3: return rng.magnitude(1, 64);
    default: {
      const v = ref >> BigInt(rng.int(30));
      return v > 0n ? rng.range(1n, v) : 1n;
    }
  }
}

/** `count` setups from the stream of `seed`. */
export function randomPumpSetups(seed: number, count: number): RandomPumpSetup[] {
  const rng = new SeededRandom(seed);
  const out: RandomPumpSetup[] = [];
  for (let i = 0; i < count; i++) {
    const curveSize = rng.pick(BONDING_CURVE_SIZES);
    const r = reserves(rng);
    const has = (offset: number): boolean => curveSize > offset;
    const creator = !has(49) || rng.int(4) === 0 ? ZERO_KEY : key(rng);
    const isMayhemMode = has(81) && rng.int(8) === 0;
    const quoteMint = has(83) ? rng.pick([ZERO_KEY, ZERO_KEY, ZERO_KEY, ZERO_KEY, NATIVE_MINT, STABLE_QUOTE_MINTS[0]!, key(rng)]) : ZERO_KEY;
    const creatorFeeBps = has(115) && rng.int(3) === 0 ? rng.pick([1n, 50n, 100n, rng.range(1n, 500n)]) : 0n;
    const curve: BondingCurveFields = {
      ...r, tokenTotalSupply: ONE_BILLION_SUPPLY, complete: false, creator, isMayhemMode,
      isCashbackCoin: has(82) && rng.int(10) === 0, quoteMint, creatorFeeBps, canEditCreatorFee: false,
      isHolderReward: has(124) && rng.int(10) === 0,
    };
    const mintSupply = isMayhemMode ? rng.pick([ONE_BILLION_SUPPLY, rng.range(1n, ONE_BILLION_SUPPLY * 2n), 2_000_000_000_000_000n]) : ONE_BILLION_SUPPLY;
    const feeConfigSize = rng.pick([FEE_CONFIG_INITIALIZE_SIZE, FEE_CONFIG_POST_STABLE_SIZE, FEE_CONFIG_CURRENT_SIZE, FEE_CONFIG_CURRENT_SIZE]);
    let feeConfig: FeeConfigFields | null = null;
    if (rng.int(6) !== 0) {
      // An empty vector (never written by the program) exercises the SDK's throw.
      const feeTiers = tiers(rng, rng.int(25) === 0 ? 0 : 1 + rng.int(5));
      // A tier boundary exactly at (or one atom around) this curve's market cap.
      if (rng.int(2) === 0 && feeTiers.length > 0) {
        const cap = marketCap(r.virtualQuoteReserves, r.virtualTokenReserves, mintSupply);
        const j = rng.int(feeTiers.length);
        const at = cap + rng.pick([0n, 0n, 1n, -1n]);
        feeTiers[j] = { ...feeTiers[j]!, marketCapThreshold: at < 0n ? 0n : at };
        feeTiers.sort((a, b) => (a.marketCapThreshold < b.marketCapThreshold ? -1 : a.marketCapThreshold > b.marketCapThreshold ? 1 : 0));
      }
      feeConfig = {
        bump: 255, admin: key(rng), flatFees: fees(rng), feeTiers,
        stableFeeTiers: feeConfigSize >= FEE_CONFIG_POST_STABLE_SIZE && rng.int(2) === 0 ? tiers(rng, 1 + rng.int(3)) : [],
        exoticFlatFees: feeConfigSize >= FEE_CONFIG_CURRENT_SIZE && rng.int(2) === 0 ? fees(rng) : { lpFeeBps: 0n, protocolFeeBps: 0n, creatorFeeBps: 0n },
      };
    }
    const circulating = INITIAL_REAL_TOKEN > r.realTokenReserves ? INITIAL_REAL_TOKEN - r.realTokenReserves : r.realTokenReserves;
    out.push({
      global: { feeBasisPoints: rng.pick([95n, 100n, 0n, rng.range(0n, 1000n)]), creatorFeeBasisPoints: rng.pick([30n, 5n, 0n, rng.range(0n, 300n)]), creatorFeeConfigurable: rng.int(2) === 0 },
      feeConfig, feeConfigSize, curve, curveSize, mintSupply,
      buyQuoteIn: amount(rng, r.realQuoteReserves > 0n ? r.realQuoteReserves : 85_000_000_000n),
      buyTokensOut: amount(rng, r.realTokenReserves),
      sellTokensIn: amount(rng, circulating),
      sellQuoteOut: amount(rng, r.realQuoteReserves > 0n ? r.realQuoteReserves : 1_000_000n),
    });
  }
  return out;
}
