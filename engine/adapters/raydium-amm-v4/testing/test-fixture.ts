/**
 * Test support: a complete synthetic AMM v4 pool (AmmInfo and two SPL vaults) in real account layouts, built from
 * a few knobs. Keys are derived from a label so fixtures are deterministic.
 */
import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import { encodeTokenAccount } from '../../common/spl-layouts.js';
import type { ChainClock } from '../../types.js';
import { type AmmInfoFields, AMM_STATUS, canonicalAmmAuthority, encodeAmmInfo } from '../layout.js';

/** A deterministic 32-byte key from a label (tests only). */
export function testKey(label: string): string {
  return bs58.encode(createHash('sha256').update(`amm-v4-test:${label}`).digest());
}

/** Knobs of a fixture pool; everything else gets realistic defaults. */
export interface AmmV4FixtureOptions {
  coinVault?: bigint;
  pcVault?: bigint;
  swapFeeNumerator?: bigint;
  swapFeeDenominator?: bigint;
  status?: bigint;
  poolOpenTime?: bigint;
  needTakePnl?: readonly [coin: bigint, pc: bigint];
  nonce?: bigint;
}

/** A fixture pool: its fields and encoded accounts keyed by address. */
export interface AmmV4Fixture {
  readonly poolAddress: string;
  readonly fields: AmmInfoFields;
  readonly accounts: Map<string, Uint8Array>;
}

/** A clock at `unixTimestamp` (defaults far after any fixture open time). */
export function testClock(unixTimestamp = 1_800_000_000n): ChainClock {
  return { slot: 300_000_000n, unixTimestamp, epoch: 700n };
}

/** Default field values of an AmmInfo as Initialize2 leaves them (fees 25/10000, SwapOnly). */
export function defaultAmmInfo(k: (s: string) => string, o: AmmV4FixtureOptions = {}): AmmInfoFields {
  return {
    status: o.status ?? AMM_STATUS.SwapOnly, nonce: o.nonce ?? BigInt(canonicalAmmAuthority().nonce), orderNum: 7n, depth: 3n,
    coinDecimals: 9n, pcDecimals: 6n, state: 1n, resetFlag: 0n, minSize: 1_000_000n, volMaxCutRatio: 500n,
    amountWave: 5_000_000n, coinLotSize: 1_000_000n, pcLotSize: 1n, minPriceMultiplier: 1n, maxPriceMultiplier: 1_000_000_000n,
    sysDecimalValue: 1_000_000_000n, minSeparateNumerator: 5n, minSeparateDenominator: 10_000n, tradeFeeNumerator: 25n,
    tradeFeeDenominator: 10_000n, pnlNumerator: 12n, pnlDenominator: 100n, swapFeeNumerator: o.swapFeeNumerator ?? 25n,
    swapFeeDenominator: o.swapFeeDenominator ?? 10_000n, needTakePnlCoin: o.needTakePnl?.[0] ?? 0n,
    needTakePnlPc: o.needTakePnl?.[1] ?? 0n, totalPnlPc: 0n, totalPnlCoin: 0n, poolOpenTime: o.poolOpenTime ?? 1_700_000_000n,
    orderbookToInitTime: 0n, swapCoinInAmount: 0n, swapPcOutAmount: 0n, swapAccPcFee: 0n, swapPcInAmount: 0n,
    swapCoinOutAmount: 0n, swapAccCoinFee: 0n, coinVault: k('coinVault'), pcVault: k('pcVault'),
    coinVaultMint: k('coinMint'), pcVaultMint: k('pcMint'), lpMint: k('lpMint'), openOrders: k('openOrders'),
    market: k('market'), marketProgram: k('marketProgram'), targetOrders: k('targetOrders'), ammOwner: k('owner'),
    lpAmount: 10n ** 12n, clientOrderId: 0n, recentEpoch: 600n,
  };
}

/** Builds a fixture pool (vault owner: the canonical authority PDA). */
export function ammV4Fixture(o: AmmV4FixtureOptions = {}, label = 'pool'): AmmV4Fixture {
  const k = (s: string): string => testKey(`${label}:${s}`);
  const fields = defaultAmmInfo(k, o);
  const authority = bs58.decode(canonicalAmmAuthority().address);
  const vault = (mint: string, amount: bigint): Uint8Array => encodeTokenAccount({
    mint: bs58.decode(mint), owner: authority, amount, delegate: null, state: 1, isNative: null, delegatedAmount: 0n, closeAuthority: null,
  });
  const poolAddress = k('address');
  const accounts = new Map<string, Uint8Array>([
    [poolAddress, encodeAmmInfo(fields)],
    [fields.coinVault, vault(fields.coinVaultMint, o.coinVault ?? 2_000_000_000_000n)],
    [fields.pcVault, vault(fields.pcVaultMint, o.pcVault ?? 300_000_000_000n)],
  ]);
  return { poolAddress, fields, accounts };
}
