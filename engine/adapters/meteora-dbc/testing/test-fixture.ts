/**
 * Test support: a complete synthetic DBC pool (VirtualPool, PoolConfig, two SPL vaults) in real account layouts,
 * built from a few knobs. Keys are derived from a label so fixtures are deterministic.
 */
import bs58 from 'bs58';
import { TOKEN_PROGRAM_ID, encodeTokenAccount } from '../../common/spl-layouts.js';
import type { ChainClock } from '../../types.js';
import { buildCurve, curveHoldings, sqrtPriceQ64 } from './curve-builder.js';
import { dbcVaultAddress } from '../descriptor.js';
import { type PoolConfigAccount, type VirtualPoolFields, encodePoolConfig, encodeVirtualPool, poolAuthority } from '../layout.js';
import { basePoolConfig, baseVirtualPool, labelKey } from './random-states.js';
import { vaultAmounts } from '../state.js';

/** Knobs of a fixture pool; everything else gets realistic defaults (SOL-quoted, 6-decimal base, 3 segments). */
export interface DbcFixtureOptions {
  /** Fraction of the curve's quote already bought (0 = fresh, 1 = complete). */
  readonly progress?: number;
  readonly config?: Partial<PoolConfigAccount>;
  readonly pool?: Partial<VirtualPoolFields>;
}

/** A fixture pool: decoded fields, encoded accounts keyed by address. */
export interface DbcFixture {
  readonly poolAddress: string;
  readonly pool: VirtualPoolFields;
  readonly config: PoolConfigAccount;
  readonly accounts: Map<string, Uint8Array>;
}

/** A clock at slot `slot` and `unixTimestamp`. */
export function testClock(slot = 300_000_000n, unixTimestamp = 1_800_000_000n): ChainClock {
  return { slot, unixTimestamp, epoch: 700n };
}

/** Builds a fixture pool. */
export function dbcFixture(o: DbcFixtureOptions = {}, label = 'pool'): DbcFixture {
  // 1e-5 SOL per token (6 decimals): 1e-2 lamports per base atom; three segments of 10, 20 and 55 SOL.
  const built = buildCurve(sqrtPriceQ64(0.01), [
    { sqrtFactorPpm: 1_500_000n, quoteAmount: 10_000_000_000n },
    { sqrtFactorPpm: 1_400_000n, quoteAmount: 20_000_000_000n },
    { sqrtFactorPpm: 1_600_000n, quoteAmount: 55_000_000_000n },
  ]);
  const config: PoolConfigAccount = {
    ...basePoolConfig(label),
    cliffFeeNumerator: 10_000_000n, collectFeeMode: 0, activationType: 0, creatorTradingFeePercentage: 25,
    sqrtStartPrice: built.sqrtStartPrice, curve: built.curve, migrationSqrtPrice: built.migrationSqrtPrice,
    migrationQuoteThreshold: built.migrationQuoteThreshold, swapBaseAmount: built.swapBaseAmount,
    migrationBaseThreshold: built.swapBaseAmount / 4n,
    ...o.config,
  };
  const progress = o.progress ?? 0.3;
  const span = config.migrationSqrtPrice - config.sqrtStartPrice;
  const sqrtPrice = config.sqrtStartPrice + (span * BigInt(Math.round(progress * 1e6))) / 1_000_000n;
  const held = curveHoldings(config.curve, config.sqrtStartPrice, config.sqrtStartPrice, sqrtPrice);
  const left = curveHoldings(config.curve, config.sqrtStartPrice, sqrtPrice, config.migrationSqrtPrice);
  const poolAddress = labelKey(`${label}:address`);
  const base = baseVirtualPool(label);
  const pool: VirtualPoolFields = {
    ...base,
    baseVault: dbcVaultAddress(poolAddress, base.baseMint), quoteVault: dbcVaultAddress(poolAddress, config.quoteMint),
    config: labelKey(`${label}:config`), sqrtPrice, quoteReserve: held.quote, baseReserve: left.base + config.migrationBaseThreshold,
    activationPoint: 299_000_000n, protocolQuoteFee: 1_000n, partnerQuoteFee: 3_000n, creatorQuoteFee: 1_000n,
    ...o.pool,
  };
  const vault = (mint: string, amount: bigint): Uint8Array => encodeTokenAccount({
    mint: bs58.decode(mint), owner: bs58.decode(poolAuthority()), amount, delegate: null, state: 1,
    isNative: null, delegatedAmount: 0n, closeAuthority: null,
  });
  const accounts = new Map<string, Uint8Array>([
    [poolAddress, encodeVirtualPool(pool)],
    [pool.config, encodePoolConfig(config)],
    // The vaults hold what the pool accounts for: the reserve plus the unclaimed fees (vaultAmounts).
    [pool.baseVault, vault(pool.baseMint, vaultAmounts(pool).baseVault)],
    [pool.quoteVault, vault(config.quoteMint, vaultAmounts(pool).quoteVault)],
  ]);
  return { poolAddress, pool, config, accounts };
}

/** The token program of fixture vaults. */
export const FIXTURE_TOKEN_PROGRAM = TOKEN_PROGRAM_ID;
