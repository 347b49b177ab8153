/**
 * The pump.fun bonding-curve adapter: the {@link DexAdapter} contract assembled from this folder's parts.
 * Token A is the coin, token B the quote mint (wrapped SOL for SOL curves, although the program moves native
 * lamports); `aToB` is a sell.
 */
import bs58 from 'bs58';
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '../common/spl-layouts.js';
import type { DescriptorInput, DexAdapter, PoolDescriptor, ProgramFilter } from '../types.js';
import { pumpfunEffectiveReserve, pumpfunEstimateOut, pumpfunFeeBps, pumpfunMarginalRate } from './estimate.js';
import { pumpfunExecute } from './execute.js';
import { pumpfunSwapInstruction } from './instruction.js';
import {
  BONDING_CURVE_DISCRIMINATOR,
  BONDING_CURVE_SIZES,
  GLOBAL_DISCRIMINATOR,
  NATIVE_MINT,
  PUMPFUN_PROGRAM_ID,
  decodeBondingCurve,
  isBondingCurveAccount,
} from './layout.js';
import { isSolLikeQuoteMint } from './fees.js';
import { associatedTokenAddress, bondingCurveAddress, feeConfigAddress, globalAddress } from './pda.js';
import { pumpfunQuote } from './quote.js';
import { pumpfunFromRecord, pumpfunToRecord } from './record.js';
import { buildPumpfunState, type PumpfunState } from './state.js';

/** One filter per BondingCurve length the program writes (size + discriminator). */
export const PUMPFUN_POOL_FILTERS: readonly ProgramFilter[] = BONDING_CURVE_SIZES.map((size) => ({
  name: `pumpfun-curves-${size}`,
  dataSize: size,
  memcmp: [{ offset: 0, bytes: BONDING_CURVE_DISCRIMINATOR }],
}));

/**
 * The Global account (its length changed across upgrades, so discriminator only). The FeeConfig belongs to the
 * pump-fees program and is subscribed by address as a dependency.
 */
export const PUMPFUN_AUX_FILTERS: readonly ProgramFilter[] = [
  { name: 'pumpfun-global', memcmp: [{ offset: 0, bytes: GLOBAL_DISCRIMINATOR }] },
];

/** What the adapter needs to know about a curve's mint (the curve account names neither). */
export interface PumpfunMintInfo {
  readonly mint: string;
  /** SPL Token (`create`) or Token-2022 (`create_v2`), base58. */
  readonly tokenProgram: string;
  /** Always 6 on pump.fun. */
  readonly decimals: number;
}

/**
 * The descriptor of a curve whose mint is known. Dependencies, in this order (buildState relies on it): the
 * Global PDA, the FeeConfig PDA, in mayhem mode the mint (its supply sets the market cap), and last the curve's
 * associated token account (its address tells the swap builder the mint's token program).
 */
export function pumpfunDescriptor(
  address: string,
  data: Uint8Array,
  info: PumpfunMintInfo,
  mintDecimals?: (mint: string) => number | undefined,
): PoolDescriptor | null {
  if (!isBondingCurveAccount(data)) return null;
  const c = decodeBondingCurve(data);
  const sol = isSolLikeQuoteMint(c.quoteMint);
  const mintB = sol ? NATIVE_MINT : c.quoteMint;
  const deps = [globalAddress(), feeConfigAddress()];
  if (c.isMayhemMode) deps.push(info.mint);
  deps.push(associatedTokenAddress(address, info.mint, info.tokenProgram));
  return {
    address,
    dex: 'pumpfun',
    programId: PUMPFUN_PROGRAM_ID,
    mintA: info.mint,
    mintB,
    decimalsA: mintDecimals?.(info.mint) ?? info.decimals,
    decimalsB: sol ? 9 : (mintDecimals?.(mintB) ?? 6),
    dependencies: deps,
  };
}

/**
 * The curve's mint from the token accounts it owns (ingest passes them as `inputs`): a token account owned by the
 * curve whose mint's bonding-curve PDA is this curve (anyone can create a token account owned by the curve, so
 * the PDA check is what makes the mint genuine). Undefined when no input qualifies.
 */
export function pumpfunMintFromInputs(curve: string, inputs: ReadonlyMap<string, DescriptorInput> | undefined): PumpfunMintInfo | undefined {
  if (!inputs) return undefined;
  const owner = bs58.decode(curve);
  for (const input of inputs.values()) {
    if (input.owner !== TOKEN_PROGRAM_ID && input.owner !== TOKEN_2022_PROGRAM_ID) continue;
    const d = input.data;
    if (d.length < 165 || !d.subarray(32, 64).every((b, i) => b === owner[i])) continue;
    const mint = bs58.encode(d.subarray(0, 32));
    if (bondingCurveAddress(mint)[0] !== curve) continue;
    return { mint, tokenProgram: input.owner, decimals: 6 };
  }
  return undefined;
}

/** Decodes a curve whose mint the token accounts it owns reveal; null otherwise (the account has no mint). */
function decodePool(
  address: string,
  data: Uint8Array,
  mintDecimals?: (mint: string) => number | undefined,
  inputs?: ReadonlyMap<string, DescriptorInput>,
): PoolDescriptor | null {
  const info = pumpfunMintFromInputs(address, inputs);
  return info ? pumpfunDescriptor(address, data, info, mintDecimals) : null;
}

/** The pump.fun bonding-curve adapter. */
export const pumpfunAdapter: DexAdapter<PumpfunState> = {
  dex: 'pumpfun',
  // `buy` is exact-out; a sell has no exact-out instruction (an inverted exact-in that can overshoot). Accounts:
  // 16 (sell) or 18 (buy).
  exactOut: false,
  exactOutBToA: true,
  accountsPerSwap: 18,
  dynamicAccounts: false,
  unidirectional: false,
  programId: PUMPFUN_PROGRAM_ID,
  poolFilters: PUMPFUN_POOL_FILTERS,
  auxFilters: PUMPFUN_AUX_FILTERS,
  isPool: isBondingCurveAccount,
  describedByOwnedTokenAccounts: true,
  decodePool,
  buildState: buildPumpfunState,
  toRecord: pumpfunToRecord,
  fromRecord: pumpfunFromRecord,
  marginalRate: pumpfunMarginalRate,
  effectiveReserve: pumpfunEffectiveReserve,
  estimateOut: pumpfunEstimateOut,
  quote: pumpfunQuote,
  feeBps: pumpfunFeeBps,
  swapInstruction: pumpfunSwapInstruction,
  execute: pumpfunExecute,
};
