/**
 * Test and bench support: seeded random PumpSwap pools covering the corners — reserves across magnitudes,
 * virtual quote reserves (0, boosted, negative), market caps at tier boundaries, flat / tier / stable / exotic
 * schedules, canonical or not, coin creator set or not, mayhem, per-pool creator fees, every pool and FeeConfig
 * version — and one amount per direction and mode. Deterministic: a failing case replays from its index.
 */
import { SeededRandom } from '../../testing/seeded-random.js';

export { SeededRandom };
import type { FeeConfigFields, FeesBps, FeeTier } from '../layout.js';
import { FEE_CONFIG_SIZE_POST_EXOTIC, FEE_CONFIG_SIZE_POST_STABLE, FEE_CONFIG_SIZE_PRE_STABLE, POOL_LIVE_SIZES } from '../layout.js';
import { type PumpswapFixtureOptions, USDC, WSOL, mainnetFeeConfig, testKey } from './test-fixture.js';


/** One random pool and an amount per direction and mode. */
export interface RandomPumpswapCase {
  readonly label: string;
  readonly options: PumpswapFixtureOptions;
  /** Base in (sell ExactIn), quote out (sell ExactOut), quote in (buy ExactIn), base out (buy ExactOut). */
  readonly sellIn: bigint;
  readonly sellOut: bigint;
  readonly buyIn: bigint;
  readonly buyOut: bigint;
}

const U64_MAX = 0xffff_ffff_ffff_ffffn;
const NATIVE_MINT_2022 = '9pan9bMn5HatX4EJdBwg9VgCa7Uz5HL8N1m5D3NdXejP';

function randomFees(rng: SeededRandom): FeesBps {
  const one = (): bigint => rng.pick([0n, 0n, 1n, 2n, 5n, 20n, 25n, 93n, 95n, rng.range(0n, 300n), rng.range(0n, 3000n)]);
  return { lpFeeBps: one(), protocolFeeBps: one(), creatorFeeBps: one() };
}

function randomTiers(rng: SeededRandom, scale: bigint): FeeTier[] {
  const n = 1 + rng.int(6);
  const out: FeeTier[] = [];
  let t = rng.pick([0n, 0n, rng.range(1n, scale)]);
  for (let i = 0; i < n; i++) {
    out.push({ marketCapThreshold: t, fees: randomFees(rng) });
    t += rng.range(1n, scale * 10n);
  }
  return out;
}

function feeConfig(rng: SeededRandom): [FeeConfigFields, number] {
  const base = mainnetFeeConfig();
  const size = rng.pick([FEE_CONFIG_SIZE_PRE_STABLE, FEE_CONFIG_SIZE_POST_STABLE, FEE_CONFIG_SIZE_POST_EXOTIC, FEE_CONFIG_SIZE_POST_EXOTIC]);
  switch (rng.int(4)) {
    case 0: return [base, size];
    case 1: return [{ ...base, exoticFlatFees: randomFees(rng) }, size];
    default: return [{
      ...base,
      flatFees: randomFees(rng),
      feeTiers: randomTiers(rng, 1_000_000_000_000n),
      stableFeeTiers: rng.int(4) === 0 ? [] : randomTiers(rng, 100_000_000_000n),
      exoticFlatFees: rng.int(2) === 0 ? { lpFeeBps: 0n, protocolFeeBps: 0n, creatorFeeBps: 0n } : randomFees(rng),
    }, size];
  }
}

function reserve(rng: SeededRandom): bigint {
  switch (rng.int(6)) {
    case 0: return rng.range(1n, 1000n);
    case 1: return rng.magnitudeBits(36, 50);
    default: return rng.magnitudeBits(1, 62);
  }
}

function amountOf(rng: SeededRandom, ref: bigint): bigint {
  switch (rng.int(10)) {
    case 0: return 1n;
    case 1: return ref > 0n ? ref : 1n;
    case 2: return ref > 1n ? ref - 1n : 1n;
    case 3: return ref + 1n;
    case 4: return rng.magnitudeBits(1, 64);
    default: {
      const v = ref >> BigInt(rng.int(40));
      return v > 0n ? rng.range(1n, v) : 1n;
    }
  }
}

/** `count` cases from the stream of `seed`. */
export function randomPumpswapCases(seed: number, count: number): RandomPumpswapCase[] {
  const rng = new SeededRandom(seed);
  const out: RandomPumpswapCase[] = [];
  for (let i = 0; i < count; i++) {
    const [fc, feeConfigSize] = feeConfig(rng);
    const quoteMint = rng.pick([WSOL, WSOL, WSOL, USDC, USDC, NATIVE_MINT_2022, testKey(`exotic:${rng.int(4)}`)]);
    const canonical = rng.int(10) < 7;
    const mayhem = rng.int(7) === 0;
    const supply = rng.int(10) < 7 ? 1_000_000_000_000_000n : rng.magnitudeBits(20, 62);
    let baseVault = reserve(rng);
    let virtualQuoteReserves = 0n;
    let quoteVault = reserve(rng);
    const vKind = rng.int(7);
    if (vKind === 0) virtualQuoteReserves = rng.range(1n, quoteVault * 4n < (1n << 63n) - quoteVault ? quoteVault * 4n : (1n << 63n) - quoteVault);
    else if (vKind === 1 && quoteVault > 1n) virtualQuoteReserves = -rng.range(1n, quoteVault - 1n);
    // Aim the market cap at a tier boundary (mcap = Qeff * supply / B).
    const tiers = quoteMint === USDC && fc.stableFeeTiers.length > 0 && feeConfigSize >= FEE_CONFIG_SIZE_POST_STABLE ? fc.stableFeeTiers : fc.feeTiers;
    if (canonical && rng.int(5) < 2 && tiers.length > 0) {
      const t = rng.pick(tiers).marketCapThreshold;
      const s = mayhem ? 1_000_000_000_000_000n : supply;
      baseVault = rng.magnitudeBits(30, 52);
      let qeff = (t * baseVault + s - 1n) / s + BigInt(rng.int(3)) - 1n;
      if (qeff < 1n) qeff = 1n;
      if (qeff > 1n << 62n) qeff = 1n << 62n;
      quoteVault = qeff - virtualQuoteReserves;
      if (quoteVault < 1n || quoteVault > 1n << 62n) { virtualQuoteReserves = 0n; quoteVault = qeff; }
    }
    const qeff = quoteVault + virtualQuoteReserves;
    const options: PumpswapFixtureOptions = {
      baseVault, quoteVault, virtualQuoteReserves, supply, canonical, quoteMint, mayhem,
      coinCreator: rng.int(4) === 0 ? null : undefined,
      cashback: rng.int(8) === 0,
      poolCreatorFeeBps: rng.int(3) === 0 ? rng.range(1n, 500n) : 0n,
      poolSize: rng.pick([...POOL_LIVE_SIZES, 270, 270, 300]),
      global: { creatorFeeConfigurable: rng.int(2) === 0 },
      feeConfig: fc,
      feeConfigSize,
      baseMintLabel: `m${rng.int(24)}`,
    };
    const cap = (v: bigint): bigint => (v > U64_MAX ? U64_MAX : v);
    out.push({
      label: `case${i}`,
      options,
      sellIn: cap(amountOf(rng, baseVault)),
      sellOut: cap(amountOf(rng, quoteVault)),
      buyIn: cap(amountOf(rng, qeff)),
      buyOut: cap(amountOf(rng, baseVault)),
    });
  }
  return out;
}
