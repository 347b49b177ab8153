/**
 * Test and bench support: a complete synthetic PumpSwap pool (Pool, GlobalConfig, FeeConfig, base mint, two
 * vaults) in real account layouts, built from a few knobs. Keys derive from labels, so fixtures are deterministic.
 */
import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import { TOKEN_PROGRAM_ID, encodeMint, encodeTokenAccount } from '../../common/spl-layouts.js';
import type { ChainClock, PoolDescriptor } from '../../types.js';
import { ZERO_KEY } from '../../common/field-table.js';
import {
  type FeeConfigFields,
  type GlobalConfigFields,
  type PoolFields,
  FEE_CONFIG_SIZE_POST_EXOTIC,
  POOL_SIZE,
  encodeFeeConfig,
  encodeGlobalConfig,
  encodePoolAccount,
} from '../layout.js';
import { MAINNET_FEE_TIERS, MAINNET_FLAT_FEES, MAINNET_STABLE_FEE_TIERS } from './mainnet-fee-tiers.js';
import { associatedTokenAddress, feeConfigAddress, globalConfigAddress, poolAddress, pumpPoolAuthority } from '../pdas.js';

/** Wrapped SOL. */
export const WSOL = 'So11111111111111111111111111111111111111112';
/** USDC (a stable quote: stable fee tiers). */
export const USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

/** A deterministic 32-byte key from a label (tests only). */
export function testKey(label: string): string {
  return bs58.encode(createHash('sha256').update(`pumpswap-test:${label}`).digest());
}

/** A clock (PumpSwap quotes do not depend on it). */
export function testClock(): ChainClock {
  return { slot: 300_000_000n, unixTimestamp: 1_800_000_000n, epoch: 700n };
}

/** The mainnet-like FeeConfig used by default. */
export function mainnetFeeConfig(): FeeConfigFields {
  return {
    bump: 255, admin: testKey('fee-admin'), flatFees: MAINNET_FLAT_FEES, feeTiers: [...MAINNET_FEE_TIERS],
    stableFeeTiers: [...MAINNET_STABLE_FEE_TIERS], exoticFlatFees: { lpFeeBps: 0n, protocolFeeBps: 0n, creatorFeeBps: 0n },
  };
}

/** A GlobalConfig with realistic values (lp 20, protocol 5, creator 5 bps; eight recipients of each kind). */
export function testGlobalConfig(o: Partial<GlobalConfigFields> = {}): GlobalConfigFields {
  const keys = (n: number, l: string): string[] => Array.from({ length: n }, (_, i) => testKey(`${l}:${i}`));
  return {
    admin: testKey('admin'), lpFeeBasisPoints: 20n, protocolFeeBasisPoints: 5n, disableFlags: 0,
    protocolFeeRecipients: keys(8, 'protocol-recipient'), coinCreatorFeeBasisPoints: 5n,
    adminSetCoinCreatorAuthority: testKey('set-creator'), whitelistPda: testKey('whitelist'),
    reservedFeeRecipient: testKey('reserved'), mayhemModeEnabled: true, reservedFeeRecipients: keys(7, 'reserved'),
    isCashbackEnabled: false, buybackFeeRecipients: keys(8, 'buyback'), buybackBasisPoints: 0n,
    boostAuthority: testKey('boost'), boostEnabled: false, creatorFeeConfigurable: true, maxConfigurableCreatorFeeBps: 500n,
    ...o,
  };
}

/** Knobs of a fixture pool. */
export interface PumpswapFixtureOptions {
  baseVault?: bigint;
  quoteVault?: bigint;
  virtualQuoteReserves?: bigint;
  supply?: bigint;
  /** Canonical pump pool (creator = pump's pool authority of the base mint). Default true. */
  canonical?: boolean;
  quoteMint?: string;
  /** Null: no coin creator (the default key). */
  coinCreator?: string | null;
  mayhem?: boolean;
  cashback?: boolean;
  poolCreatorFeeBps?: bigint;
  /** Pool account size: 211, 243, 244, 245, 261, 270 or 300. */
  poolSize?: number;
  global?: Partial<GlobalConfigFields>;
  feeConfig?: FeeConfigFields;
  feeConfigSize?: number;
  /** Label of the base mint (fixtures sharing it share the canonical PDA, which is memoized). */
  baseMintLabel?: string;
}

/** A fixture pool: its fields, its descriptor and encoded accounts keyed by address. */
export interface PumpswapFixture {
  readonly poolAddress: string;
  readonly poolFields: PoolFields;
  readonly globalFields: GlobalConfigFields;
  readonly feeConfigFields: FeeConfigFields;
  readonly descriptor: PoolDescriptor;
  readonly accounts: Map<string, Uint8Array>;
}

/** Builds a fixture pool (the pool at its real PDA, vaults at the pool's ATAs). */
export function pumpswapFixture(o: PumpswapFixtureOptions = {}, label = 'pool'): PumpswapFixture {
  const baseMint = testKey(`mint:${o.baseMintLabel ?? label}`);
  const quoteMint = o.quoteMint ?? WSOL;
  const canonical = o.canonical ?? true;
  const creator = canonical ? pumpPoolAuthority(baseMint) : testKey(`${label}:creator`);
  const [address, bump] = poolAddress(0, creator, baseMint, quoteMint);
  const baseVaultKey = associatedTokenAddress(address, baseMint);
  const quoteVaultKey = associatedTokenAddress(address, quoteMint);
  const poolFields: PoolFields = {
    poolBump: bump, index: 0, creator, baseMint, quoteMint, lpMint: testKey(`${label}:lp`),
    poolBaseTokenAccount: baseVaultKey, poolQuoteTokenAccount: quoteVaultKey, lpSupply: 4_193_388_000_000n,
    coinCreator: o.coinCreator === null ? ZERO_KEY : o.coinCreator ?? testKey(`${label}:coin-creator`),
    isMayhemMode: o.mayhem ?? false, isCashbackCoin: o.cashback ?? false,
    virtualQuoteReserves: o.virtualQuoteReserves ?? 0n, creatorFeeBps: o.poolCreatorFeeBps ?? 0n, canEditCreatorFee: false,
  };
  const globalFields = testGlobalConfig(o.global);
  const feeConfigFields = o.feeConfig ?? mainnetFeeConfig();
  const vault = (mint: string, amount: bigint): Uint8Array => encodeTokenAccount({
    mint: bs58.decode(mint), owner: bs58.decode(address), amount, delegate: null, state: 1,
    isNative: mint === WSOL ? 2_039_280n : null, delegatedAmount: 0n, closeAuthority: null,
  });
  const size = o.poolSize ?? POOL_SIZE;
  const poolData = encodePoolAccount(poolFields, size);
  // A pool too short to hold a field reads it as zero: the fixture's fields say what the program sees.
  const seen: PoolFields = {
    ...poolFields,
    coinCreator: size >= 243 ? poolFields.coinCreator : ZERO_KEY,
    isMayhemMode: size >= 244 && poolFields.isMayhemMode,
    isCashbackCoin: size >= 245 && poolFields.isCashbackCoin,
    virtualQuoteReserves: size >= 261 ? poolFields.virtualQuoteReserves : 0n,
    creatorFeeBps: size >= 269 ? poolFields.creatorFeeBps : 0n,
    canEditCreatorFee: size >= 270 && poolFields.canEditCreatorFee,
  };
  const accounts = new Map<string, Uint8Array>([
    [address, poolData],
    [globalConfigAddress(), encodeGlobalConfig(globalFields)],
    [feeConfigAddress(), encodeFeeConfig(feeConfigFields, o.feeConfigSize ?? FEE_CONFIG_SIZE_POST_EXOTIC)],
    [baseMint, encodeMint({ mintAuthority: null, supply: o.supply ?? 1_000_000_000_000_000n, decimals: 6, isInitialized: true, freezeAuthority: null })],
    [baseVaultKey, vault(baseMint, o.baseVault ?? 206_900_000_000_000n)],
    [quoteVaultKey, vault(quoteMint, o.quoteVault ?? 84_990_359_679n)],
  ]);
  const descriptor: PoolDescriptor = {
    address, dex: 'pumpswap', programId: 'pAMMBay6oceH9fJKBRHGP5D4bD4sWpmSwMn52FMfXEA', mintA: baseMint, mintB: quoteMint,
    decimalsA: 6, decimalsB: quoteMint === WSOL ? 9 : 6,
    dependencies: [globalConfigAddress(), feeConfigAddress(), baseMint, baseVaultKey, quoteVaultKey],
  };
  return { poolAddress: address, poolFields: seen, globalFields, feeConfigFields, descriptor, accounts };
}

/** The token program of the fixture's mints. */
export const FIXTURE_TOKEN_PROGRAM = TOKEN_PROGRAM_ID;
