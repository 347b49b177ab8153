/**
 * Test support: a complete synthetic LaunchLab pool (PoolState, GlobalConfig, PlatformConfig, both vaults, both
 * fee vaults) in real account layouts, from a few knobs. Keys derive from a label, so fixtures are deterministic.
 */
import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import { TOKEN_PROGRAM_ID, encodeTokenAccount } from '../../common/spl-layouts.js';
import type { ChainClock } from '../../types.js';
import {
  type GlobalConfigFields,
  type LaunchlabPoolFields,
  type PlatformConfigFields,
  encodeGlobalConfig,
  encodeLaunchlabPool,
  encodePlatformConfig,
} from '../layout.js';
import { creatorFeeVault, creatorFeeVaultAuthority, launchlabAuthority, platformFeeVault, platformFeeVaultAuthority } from '../pda.js';

/** A deterministic 32-byte key from a label (tests only). */
export function testKey(label: string): string {
  return bs58.encode(createHash('sha256').update(`launchlab-test:${label}`).digest());
}

/** Knobs of a fixture pool (defaults: a bonk.fun-like constant-product curve a quarter sold). */
export interface LaunchlabFixtureOptions {
  curveType?: number;
  status?: number;
  virtualA?: bigint;
  virtualB?: bigint;
  realA?: bigint;
  realB?: bigint;
  totalSellA?: bigint;
  tradeFeeRate?: bigint;
  platformFeeRate?: bigint;
  creatorFeeRate?: bigint;
  protocolFee?: bigint;
  mintProgramFlag?: number;
}

/** A fixture pool: its fields and the encoded accounts keyed by address. */
export interface LaunchlabFixture {
  readonly poolAddress: string;
  readonly poolFields: LaunchlabPoolFields;
  readonly configFields: GlobalConfigFields;
  readonly platformFields: PlatformConfigFields;
  readonly platformFeeVault: string;
  readonly creatorFeeVault: string;
  readonly accounts: Map<string, Uint8Array>;
}

/** A clock for fixtures. */
export function testClock(): ChainClock {
  return { slot: 300_000_000n, unixTimestamp: 1_800_000_000n, epoch: 700n };
}

/** Builds a fixture pool. */
export function launchlabFixture(o: LaunchlabFixtureOptions = {}, label = 'pool'): LaunchlabFixture {
  const k = (s: string): string => testKey(`${label}:${s}`);
  const realA = o.realA ?? 200_000_000_000_000n;
  const realB = o.realB ?? 7_483_305_225n;
  const protocolFee = o.protocolFee ?? 30_000_000n;
  const poolFields: LaunchlabPoolFields = {
    epoch: 600n, bump: 254, status: o.status ?? 0, mintDecimalsA: 6, mintDecimalsB: 9, migrateType: 1,
    supply: 1_000_000_000_000_000n, totalSellA: o.totalSellA ?? 793_100_000_000_000n,
    virtualA: o.virtualA ?? 1_073_025_605_596_382n, virtualB: o.virtualB ?? 30_000_852_951n, realA, realB,
    totalFundRaisingB: 85_000_000_000n, protocolFee, platformFee: 0n, migrateFee: 0n,
    vestingTotalLockedAmount: 0n, vestingCliffPeriod: 0n, vestingUnlockPeriod: 0n, vestingStartTime: 0n,
    vestingAllocatedShareAmount: 0n, globalConfig: k('config'), platformConfig: k('platform'), mintA: k('mintA'),
    mintB: k('mintB'), vaultA: k('vaultA'), vaultB: k('vaultB'), creator: k('creator'),
    mintProgramFlag: o.mintProgramFlag ?? 0, cpmmCreatorFeeOn: 0, platformVestingShare: 0n,
  };
  const configFields: GlobalConfigFields = {
    epoch: 1n, curveType: o.curveType ?? 0, index: 0, migrateFee: 0n, tradeFeeRate: o.tradeFeeRate ?? 2500n,
    maxShareFeeRate: 10_000n, minSupplyA: 10_000_000n, maxLockRate: 300_000n, minSellRateA: 200_000n,
    minMigrateRateA: 200_000n, minFundRaisingB: 30_000_000_000n, mintB: poolFields.mintB,
    protocolFeeOwner: k('protocolOwner'), migrateFeeOwner: k('migrateOwner'), migrateToAmmWallet: k('toAmm'),
    migrateToCpmmWallet: k('toCpmm'),
  };
  const platformFields: PlatformConfigFields = {
    epoch: 1n, platformClaimFeeWallet: k('platformWallet'), platformLockNftWallet: k('nftWallet'), platformScale: 0n,
    creatorScale: 0n, burnScale: 0n, feeRate: o.platformFeeRate ?? 10_000n, cpConfigId: k('cpConfig'),
    creatorFeeRate: o.creatorFeeRate ?? 500n, transferFeeExtensionAuth: k('tfAuth'), platformVestingWallet: k('vest'),
    platformVestingScale: 0n, platformCpCreator: k('cpCreator'), restrictGlobalConfig: 0, restrictCurveParam: 0,
    curveRuleManager: k('ruleManager'),
  };
  const tokenAccount = (mint: string, owner: string, amount: bigint): Uint8Array => encodeTokenAccount({
    mint: bs58.decode(mint), owner: bs58.decode(owner), amount, delegate: null, state: 1, isNative: null,
    delegatedAmount: 0n, closeAuthority: null,
  });
  const poolAddress = k('address');
  const platformVault = platformFeeVault(poolFields.platformConfig, poolFields.mintB);
  const creatorVault = creatorFeeVault(poolFields.creator, poolFields.mintB);
  const authority = launchlabAuthority()[0];
  const accounts = new Map<string, Uint8Array>([
    [poolAddress, encodeLaunchlabPool(poolFields)],
    [poolFields.globalConfig, encodeGlobalConfig(configFields)],
    [poolFields.platformConfig, encodePlatformConfig(platformFields)],
    [poolFields.vaultA, tokenAccount(poolFields.mintA, authority, poolFields.supply - realA)],
    [poolFields.vaultB, tokenAccount(poolFields.mintB, authority, realB + protocolFee)],
    [platformVault, tokenAccount(poolFields.mintB, platformFeeVaultAuthority(), 0n)],
    [creatorVault, tokenAccount(poolFields.mintB, creatorFeeVaultAuthority(), 0n)],
  ]);
  void TOKEN_PROGRAM_ID;
  return { poolAddress, poolFields, configFields, platformFields, platformFeeVault: platformVault, creatorFeeVault: creatorVault, accounts };
}
