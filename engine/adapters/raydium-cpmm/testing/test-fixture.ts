/**
 * Test support: a complete synthetic CPMM pool (PoolState, AmmConfig, two SPL vaults) in real account
 * layouts, built from a few knobs. Keys are derived from a label so fixtures are deterministic.
 */
import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import { TOKEN_PROGRAM_ID, encodeTokenAccount } from '../../common/spl-layouts.js';
import type { ChainClock } from '../../types.js';
import { type AmmConfigFields, type PoolStateFields, encodeAmmConfig, encodePoolState, poolAuthority } from '../layout.js';

/** A deterministic 32-byte key from a label (not on the curve-check path; tests only). */
export function testKey(label: string): string {
  return bs58.encode(createHash('sha256').update(`cpmm-test:${label}`).digest());
}

/** Knobs of a fixture pool; everything else gets realistic defaults. */
export interface CpmmFixtureOptions {
  vault0?: bigint;
  vault1?: bigint;
  tradeFeeRate?: bigint;
  creatorFeeRate?: bigint;
  protocolFeeRate?: bigint;
  fundFeeRate?: bigint;
  creatorFeeOn?: number;
  enableCreatorFee?: boolean;
  status?: number;
  openTime?: bigint;
  protocolFees?: readonly [bigint, bigint];
  fundFees?: readonly [bigint, bigint];
  creatorFees?: readonly [bigint, bigint];
}

/** A fixture pool: its fields, encoded accounts keyed by address, and the keys. */
export interface CpmmFixture {
  readonly poolAddress: string;
  readonly poolFields: PoolStateFields;
  readonly configFields: AmmConfigFields;
  readonly accounts: Map<string, Uint8Array>;
}

/** A clock at `unixTimestamp` (defaults far after any fixture open time). */
export function testClock(unixTimestamp = 1_800_000_000n): ChainClock {
  return { slot: 300_000_000n, unixTimestamp, epoch: 700n };
}

/** Builds a fixture pool. */
export function cpmmFixture(o: CpmmFixtureOptions = {}, label = 'pool'): CpmmFixture {
  const k = (s: string): string => testKey(`${label}:${s}`);
  const poolFields: PoolStateFields = {
    ammConfig: k('config'), poolCreator: k('creator'), token0Vault: k('vault0'), token1Vault: k('vault1'),
    lpMint: k('lp'), token0Mint: k('mint0'), token1Mint: k('mint1'), token0Program: TOKEN_PROGRAM_ID,
    token1Program: TOKEN_PROGRAM_ID, observationKey: k('observation'), authBump: 253, status: o.status ?? 0,
    lpMintDecimals: 9, mint0Decimals: 9, mint1Decimals: 6, lpSupply: 10n ** 12n,
    protocolFeesToken0: o.protocolFees?.[0] ?? 1_000n, protocolFeesToken1: o.protocolFees?.[1] ?? 2_000n,
    fundFeesToken0: o.fundFees?.[0] ?? 300n, fundFeesToken1: o.fundFees?.[1] ?? 400n,
    openTime: o.openTime ?? 1_700_000_000n, recentEpoch: 600n, creatorFeeOn: o.creatorFeeOn ?? 0,
    enableCreatorFee: o.enableCreatorFee ?? true,
    creatorFeesToken0: o.creatorFees?.[0] ?? 50n, creatorFeesToken1: o.creatorFees?.[1] ?? 60n,
  };
  const configFields: AmmConfigFields = {
    bump: 255, disableCreatePool: false, index: 0, tradeFeeRate: o.tradeFeeRate ?? 2_500n,
    protocolFeeRate: o.protocolFeeRate ?? 120_000n, fundFeeRate: o.fundFeeRate ?? 40_000n, createPoolFee: 0n,
    protocolOwner: k('protocolOwner'), fundOwner: k('fundOwner'), creatorFeeRate: o.creatorFeeRate ?? 500n,
    creatorFeeShareRate: 0n,
  };
  const vault = (mint: string, amount: bigint): Uint8Array => encodeTokenAccount({
    mint: bs58.decode(mint), owner: bs58.decode(poolAuthority()), amount, delegate: null, state: 1,
    isNative: null, delegatedAmount: 0n, closeAuthority: null,
  });
  const poolAddress = k('address');
  const accounts = new Map<string, Uint8Array>([
    [poolAddress, encodePoolState(poolFields)],
    [poolFields.ammConfig, encodeAmmConfig(configFields)],
    [poolFields.token0Vault, vault(poolFields.token0Mint, o.vault0 ?? 2_000_000_000_000n)],
    [poolFields.token1Vault, vault(poolFields.token1Mint, o.vault1 ?? 300_000_000_000n)],
  ]);
  return { poolAddress, poolFields, configFields, accounts };
}
