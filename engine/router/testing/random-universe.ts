/**
 * Test support: small slab universes of random pools of every registered DEX (states from each adapter's
 * `testing/random-states.ts` generator), written into a real PoolSlab / MintTable / Topology, plus the record
 * image of each pool so that tests can quote it independently of the slab.
 */
import { ADAPTERS_BY_DEX_INDEX } from '../../adapters/by-dex-index.js';
import { dbcStateFrom } from '../../adapters/meteora-dbc/state.js';
import { randomDbcCases } from '../../adapters/meteora-dbc/testing/random-states.js';
import { PUMPFUN_STATUS_OK, type PumpfunState } from '../../adapters/pumpfun/state.js';
import { PUMPSWAP_STATUS_OK, type PumpswapState } from '../../adapters/pumpswap/state.js';
import { AMM_V4_STATUS_OK, type AmmV4State } from '../../adapters/raydium-amm-v4/state.js';
import { randomAmmV4States } from '../../adapters/raydium-amm-v4/testing/random-states.js';
import { CPMM_STATUS_OK, type CpmmState } from '../../adapters/raydium-cpmm/state.js';
import { randomCpmmStates } from '../../adapters/raydium-cpmm/testing/random-states.js';
import type { LaunchlabState } from '../../adapters/raydium-launchlab/state.js';
import { randomLaunchlabStates } from '../../adapters/raydium-launchlab/testing/random-states.js';
import { SeededRandom } from '../../adapters/testing/seeded-random.js';
import { ADAPTERS } from '../../adapters/registry.js';
import { PARAM_F64_WORDS, PARAM_U64_WORDS, type DexAdapter, type RecordFields } from '../../adapters/types.js';
import { dexIndex, type DexId } from '../../dex-ids.js';
import { USDC_MINT, USDT_MINT, WSOL_MINT } from '../../catalog/tokens.js';
import { MintTable } from '../../slab/mint-table.js';
import { PoolSlab, VIEW_LATEST } from '../../slab/pool-slab.js';
import { Topology } from '../../slab/topology.js';
import type { PoolSideSource } from '../pool-side.js';

/** The wall clock every universe is written at. */
export const UNIVERSE_NOW_MS = 1_800_000_000_000;

/** One pool of a universe as the test knows it. */
export interface UniversePool {
  readonly pool: number;
  readonly dex: DexId;
  readonly adapter: DexAdapter;
  /** The record image written to the slab (status possibly overridden). */
  readonly fields: RecordFields;
  readonly mintA: number;
  readonly mintB: number;
  readonly updatedAtMs: number;
}

/** A slab universe and its pools. */
export interface Universe {
  readonly src: PoolSideSource;
  readonly pools: UniversePool[];
  /** Mint ids in creation order (SOL, USDC, USDT first when `anchors`). */
  readonly mints: number[];
}

/**
 * An empty universe with `mintCount` mints (the first three SOL, USDC, USDT when `anchors`), room for up to
 * `maxPools` pools.
 */
export function emptyUniverse(rng: SeededRandom, mintCount: number, anchors = true, maxPools = 4096): Universe {
  const slab = PoolSlab.create(16, maxPools);
  const table = MintTable.create(16, Math.max(1024, mintCount));
  const mints: number[] = [];
  const named = anchors ? [WSOL_MINT, USDC_MINT, USDT_MINT] : [];
  for (let i = 0; i < mintCount; i++) mints.push(i < named.length ? table.add(named[i]!, i === 0 ? 9 : 6) : table.add(randomKey(rng), 6));
  return { src: { slab, mints: table, topology: new Topology(slab), adapters: ADAPTERS_BY_DEX_INDEX }, pools: [], mints };
}

function randomKey(rng: SeededRandom): Uint8Array {
  const b = new Uint8Array(32);
  const v = new DataView(b.buffer);
  for (let i = 0; i < 32; i += 8) v.setBigUint64(i, rng.nextU64(), true);
  return b;
}

/** Writes one pool of `dex` with `state` between two mints; `status` overrides the record's status. */
export function addPool(
  u: Universe, rng: SeededRandom, dex: DexId, state: unknown, mintA: number, mintB: number,
  opts: { status?: number; updatedAtMs?: number } = {},
): UniversePool {
  const adapter = ADAPTERS.find((a) => a.dex === dex)!;
  const fields: RecordFields = { status: 0, reserveA: 0n, reserveB: 0n, u64: new Array<bigint>(PARAM_U64_WORDS).fill(0n), f64: new Array<number>(PARAM_F64_WORDS).fill(0), ext: null };
  adapter.toRecord(state, fields);
  if (opts.status !== undefined) fields.status = opts.status;
  const updatedAtMs = opts.updatedAtMs ?? UNIVERSE_NOW_MS;
  const pool = u.src.slab.addPool(randomKey(rng), dexIndex(dex), mintA, mintB);
  u.src.slab.write(pool, VIEW_LATEST, fields, 1000n, updatedAtMs, false);
  const p: UniversePool = { pool, dex, adapter, fields, mintA, mintB, updatedAtMs };
  u.pools.push(p);
  return p;
}

/** A random quotable state of `dex` from its adapter's random-state generator (seeded by `rng`). */
export function randomState(rng: SeededRandom, dex: DexId): unknown {
  const seed = rng.int(2 ** 31);
  switch (dex) {
    case 'raydium-cpmm': {
      const s = randomCpmmStates(seed, 1)[0]!;
      const state: CpmmState = {
        status: CPMM_STATUS_OK, reserve0: s.reserve0, reserve1: s.reserve1, vault0: s.reserve0, vault1: s.reserve1, rates: s.rates,
        creatorFeeOn: s.creatorFeeOn, openTime: 0n, poolStatusBits: 0, transferFee0: null, transferFee1: null, transferFeeChanges: false,
      };
      return state;
    }
    case 'raydium-amm-v4': {
      const s = randomAmmV4States(seed, 1)[0]!;
      const valid = s.swapFeeDenominator > 0n && s.swapFeeNumerator < s.swapFeeDenominator;
      const state: AmmV4State = {
        status: AMM_V4_STATUS_OK,
        reserveCoin: s.coinVaultAmount > s.needTakePnlCoin ? s.coinVaultAmount - s.needTakePnlCoin : 0n,
        reservePc: s.pcVaultAmount > s.needTakePnlPc ? s.pcVaultAmount - s.needTakePnlPc : 0n,
        vaultCoin: s.coinVaultAmount, vaultPc: s.pcVaultAmount,
        swapFeeNumerator: valid ? s.swapFeeNumerator : 25n, swapFeeDenominator: valid ? s.swapFeeDenominator : 10_000n,
        ammStatus: 6n, poolOpenTime: 0n,
      };
      return state;
    }
    case 'raydium-launchlab': {
      const s = randomLaunchlabStates(seed, 1, rng.int(3))[0]!;
      const state: LaunchlabState = { ...s, status: 0, poolStatus: 0, vaultB: s.realB };
      return state;
    }
    case 'meteora-dbc': {
      const c = randomDbcCases(seed, 1)[0]!;
      return dbcStateFrom(c.pool, c.config, c.clock);
    }
    case 'pumpswap': {
      const r = (): bigint => (rng.int(6) === 0 ? rng.range(1n, 1000n) : rng.magnitude(10, 62));
      const b = r();
      const q = r();
      const bps = (): bigint => rng.pick([0n, 5n, 20n, 25n, 93n, rng.range(0n, 3333n)]);
      const state: PumpswapState = {
        status: PUMPSWAP_STATUS_OK, baseReserve: b, quoteReserve: q, quoteVault: rng.int(4) === 0 ? q / 2n + 1n : q,
        fees: { lpFeeBps: bps(), protocolFeeBps: bps(), creatorFeeBps: bps() }, disableFlags: 0, schedule: 1, tierIndex: 0,
      };
      return state;
    }
    case 'pumpfun': {
      const sold = rng.range(0n, 793_100_000_000_000n - 1n);
      const vT = 1_073_000_000_000_000n - sold;
      const vQ = (1_073_000_000_000_000n * 30_000_000_000n + vT - 1n) / vT;
      const state: PumpfunState = {
        status: PUMPFUN_STATUS_OK, virtualTokenReserves: vT, virtualQuoteReserves: vQ, realTokenReserves: 793_100_000_000_000n - sold,
        realQuoteReserves: vQ - 30_000_000_000n, protocolFeeBps: rng.pick([0n, 93n, 95n]), creatorFeeBps: rng.pick([0n, 30n, 95n]),
      };
      return state;
    }
    default:
      throw new Error(`no random state generator for ${dex}`);
  }
}

/** Every DEX with a registered adapter. */
export const REGISTERED_DEXES: readonly DexId[] = ADAPTERS.map((a) => a.dex);

/**
 * A random universe: `mintCount` mints, `poolCount` pools of random registered DEXes between random mint pairs,
 * a share of them disabled (record status 9) or stale (updated an hour before {@link UNIVERSE_NOW_MS}).
 */
export function randomUniverse(seed: number, mintCount: number, poolCount: number, unusableShare = 0.15): Universe {
  const rng = new SeededRandom(seed);
  const u = emptyUniverse(rng, mintCount);
  for (let i = 0; i < poolCount; i++) {
    const a = rng.int(mintCount);
    let b = rng.int(mintCount - 1);
    if (b >= a) b++;
    const dex = rng.pick(REGISTERED_DEXES);
    const unusable = rng.float() < unusableShare;
    const stale = unusable && rng.int(2) === 0;
    addPool(u, rng, dex, randomState(rng, dex), u.mints[a]!, u.mints[b]!, {
      status: unusable && !stale ? 9 : undefined,
      updatedAtMs: stale ? UNIVERSE_NOW_MS - 3_600_000 : UNIVERSE_NOW_MS,
    });
  }
  return u;
}
