/**
 * Test support: a complete synthetic pump.fun setup (Global, FeeConfig, one curve in real account layouts,
 * its mint registered) built from a few knobs. Keys derive from a label so fixtures are deterministic.
 */
import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import { TOKEN_PROGRAM_ID } from '../../common/spl-layouts.js';
import type { ChainClock } from '../../types.js';
import { type FeeConfigFields, encodeFeeConfig } from '../fee-config.js';
import { type BondingCurveFields, type GlobalFields, GLOBAL_ARRAYS, GLOBAL_FIELDS, ZERO_KEY, encodeBondingCurve, encodeGlobal } from '../layout.js';
import { associatedTokenAddress, bondingCurveAddress, feeConfigAddress, globalAddress } from '../pda.js';
import { encodeTokenAccount } from '../../common/spl-layouts.js';
import type { DescriptorInput } from '../../types.js';
import { INITIAL_REAL_TOKEN, INITIAL_VIRTUAL_SOL, INITIAL_VIRTUAL_TOKEN } from './random-states.js';

/** A deterministic 32-byte key from a label. */
export function testKey(label: string): string {
  return bs58.encode(createHash('sha256').update(`pumpfun-test:${label}`).digest());
}

/** A clock (pump.fun does not read it). */
export function testClock(): ChainClock {
  return { slot: 300_000_000n, unixTimestamp: 1_800_000_000n, epoch: 700n };
}

/** A realistic Global (mainnet initial reserves, 95 + 30 bps fallback fees). */
export function testGlobal(o: Partial<GlobalFields> = {}): GlobalFields {
  const g: Record<string, unknown> = {};
  for (const f of GLOBAL_FIELDS) g[f.name] = f.kind === 'pubkey' ? ZERO_KEY : f.kind === 'bool' ? false : 0n;
  for (const a of GLOBAL_ARRAYS) g[a.name] = Array.from({ length: a.length }, () => ZERO_KEY);
  return {
    ...(g as GlobalFields), initialized: true, authority: testKey('authority'), feeRecipient: testKey('fee-recipient'),
    initialVirtualTokenReserves: INITIAL_VIRTUAL_TOKEN, initialVirtualSolReserves: INITIAL_VIRTUAL_SOL,
    initialRealTokenReserves: INITIAL_REAL_TOKEN, tokenTotalSupply: 1_000_000_000_000_000n, feeBasisPoints: 95n,
    creatorFeeBasisPoints: 30n, reservedFeeRecipient: testKey('reserved-fee-recipient'), creatorFeeConfigurable: true,
    maxConfigurableCreatorFeeBps: 100n, buybackFeeRecipients: [testKey('buyback'), ...Array.from({ length: 7 }, () => ZERO_KEY)],
    ...o,
  };
}

/** Realistic FeeConfig tiers (pump's market-cap schedule shape). */
export function testFeeConfig(): FeeConfigFields {
  const f = (protocolFeeBps: bigint, creatorFeeBps: bigint) => ({ lpFeeBps: 0n, protocolFeeBps, creatorFeeBps });
  return {
    bump: 255, admin: testKey('fee-admin'), flatFees: f(95n, 30n),
    feeTiers: [
      { marketCapThreshold: 0n, fees: f(95n, 30n) },
      { marketCapThreshold: 150_000_000_000n, fees: f(93n, 30n) },
      { marketCapThreshold: 300_000_000_000n, fees: f(5n, 95n) },
    ],
    stableFeeTiers: [{ marketCapThreshold: 0n, fees: f(95n, 30n) }],
    exoticFlatFees: f(0n, 0n),
  };
}

/** Curve after `soldTokens` of the initial real reserves were bought (mainnet constant product). */
export function testCurve(soldTokens: bigint, o: Partial<BondingCurveFields> = {}): BondingCurveFields {
  const vT = INITIAL_VIRTUAL_TOKEN - soldTokens;
  const vQ = (INITIAL_VIRTUAL_TOKEN * INITIAL_VIRTUAL_SOL + vT - 1n) / vT;
  return {
    virtualTokenReserves: vT, virtualQuoteReserves: vQ, realTokenReserves: INITIAL_REAL_TOKEN - soldTokens,
    realQuoteReserves: vQ - INITIAL_VIRTUAL_SOL, tokenTotalSupply: 1_000_000_000_000_000n, complete: false,
    creator: testKey('creator'), isMayhemMode: false, isCashbackCoin: false, quoteMint: ZERO_KEY, creatorFeeBps: 0n,
    canEditCreatorFee: false, isHolderReward: false, ...o,
  };
}

/** A fixture: accounts keyed by address, the curve's address and mint. */
export interface PumpfunFixture {
  readonly curveAddress: string;
  readonly mint: string;
  readonly curve: BondingCurveFields;
  readonly global: GlobalFields;
  readonly accounts: Map<string, Uint8Array>;
  /** The curve's token account, as ingest hands it to `decodePool` (the curve does not name its mint). */
  readonly inputs: Map<string, DescriptorInput>;
}

/** Builds a fixture. */
export function pumpfunFixture(
  o: { sold?: bigint; curve?: Partial<BondingCurveFields>; global?: Partial<GlobalFields>; curveSize?: number; label?: string; tokenProgram?: string } = {},
): PumpfunFixture {
  const mint = testKey(`mint:${o.label ?? 'coin'}`);
  const curve = testCurve(o.sold ?? 200_000_000_000_000n, o.curve);
  const global = testGlobal(o.global);
  const tokenProgram = o.tokenProgram ?? TOKEN_PROGRAM_ID;
  const [curveAddress] = bondingCurveAddress(mint);
  const accounts = new Map<string, Uint8Array>([
    [curveAddress, encodeBondingCurve(curve, o.curveSize ?? 151)],
    [globalAddress(), encodeGlobal(global)],
    [feeConfigAddress(), encodeFeeConfig(testFeeConfig())],
  ]);
  const ata = associatedTokenAddress(curveAddress, mint, tokenProgram);
  const ataData = encodeTokenAccount({
    mint: bs58.decode(mint), owner: bs58.decode(curveAddress), amount: curve.realTokenReserves, delegate: null, state: 1, isNative: null,
    delegatedAmount: 0n, closeAuthority: null,
  });
  accounts.set(ata, ataData);
  const inputs = new Map<string, DescriptorInput>([[ata, { owner: tokenProgram, data: ataData }]]);
  return { curveAddress, mint, curve, global, accounts, inputs };
}
