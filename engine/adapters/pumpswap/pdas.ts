/**
 * The PumpSwap program's derived addresses (seeds from the IDL and the SDK's `pda.ts`): the singletons are
 * computed once on first use, the per-mint pool authority is memoized (buildState asks for it on every vault
 * update), the rest are derived when an instruction is built.
 */
import { PublicKey } from '@solana/web3.js';
import { TOKEN_PROGRAM_ID } from '../common/spl-layouts.js';
import { PUMP_FEES_PROGRAM_ID, PUMP_PROGRAM_ID, PUMPSWAP_PROGRAM_ID } from './layout.js';

/** The associated token account program. */
export const ASSOCIATED_TOKEN_PROGRAM_ID = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';
/** The system program. */
export const SYSTEM_PROGRAM_ID = '11111111111111111111111111111111';

const enc = new TextEncoder();
const key = (s: string): Uint8Array => new PublicKey(s).toBytes();

function pda(programId: string, seeds: readonly Uint8Array[]): [string, number] {
  const [k, bump] = PublicKey.findProgramAddressSync(seeds as Uint8Array[], new PublicKey(programId));
  return [k.toBase58(), bump];
}

const once = new Map<string, string>();
function cached(name: string, make: () => string): string {
  let v = once.get(name);
  if (v === undefined) {
    v = make();
    once.set(name, v);
  }
  return v;
}

/** GlobalConfig PDA `["global_config"]` (ADyA8hdefvWN2dbGGWFotbzWxrAvLW83WG6QCVXvJKqw on mainnet). */
export function globalConfigAddress(): string {
  return cached('global_config', () => pda(PUMPSWAP_PROGRAM_ID, [enc.encode('global_config')])[0]);
}

/** FeeConfig PDA `["fee_config", pump-amm program]` under pump-fees (5PHirr8joyTMp9JMm6nW7hNDVyEYdkzDqazxPD7RaTjx). */
export function feeConfigAddress(): string {
  return cached('fee_config', () => pda(PUMP_FEES_PROGRAM_ID, [enc.encode('fee_config'), key(PUMPSWAP_PROGRAM_ID)])[0]);
}

/** Anchor event authority PDA `["__event_authority"]`. */
export function eventAuthorityAddress(): string {
  return cached('event_authority', () => pda(PUMPSWAP_PROGRAM_ID, [enc.encode('__event_authority')])[0]);
}

/** Global volume accumulator PDA `["global_volume_accumulator"]`. */
export function globalVolumeAccumulatorAddress(): string {
  return cached('global_volume_accumulator', () => pda(PUMPSWAP_PROGRAM_ID, [enc.encode('global_volume_accumulator')])[0]);
}

/** User volume accumulator PDA `["user_volume_accumulator", user]`. */
export function userVolumeAccumulatorAddress(user: string): string {
  return pda(PUMPSWAP_PROGRAM_ID, [enc.encode('user_volume_accumulator'), key(user)])[0];
}

/** Coin-creator vault authority PDA `["creator_vault", coin_creator]`. */
export function coinCreatorVaultAuthority(coinCreator: string): string {
  return pda(PUMPSWAP_PROGRAM_ID, [enc.encode('creator_vault'), key(coinCreator)])[0];
}

/** `pool-v2` PDA `["pool-v2", base_mint]` (a remaining account of trades on pools with a coin creator). */
export function poolV2Address(baseMint: string): string {
  return pda(PUMPSWAP_PROGRAM_ID, [enc.encode('pool-v2'), key(baseMint)])[0];
}

/** Pool PDA `["pool", index u16 LE, creator, base_mint, quote_mint]` and its bump. */
export function poolAddress(index: number, creator: string, baseMint: string, quoteMint: string): [string, number] {
  const idx = new Uint8Array(2);
  new DataView(idx.buffer).setUint16(0, index, true);
  return pda(PUMPSWAP_PROGRAM_ID, [enc.encode('pool'), idx, key(creator), key(baseMint), key(quoteMint)]);
}

/** Associated token account of `owner` for `mint` under `tokenProgram`. */
export function associatedTokenAddress(owner: string, mint: string, tokenProgram: string = TOKEN_PROGRAM_ID): string {
  return pda(ASSOCIATED_TOKEN_PROGRAM_ID, [key(owner), key(tokenProgram), key(mint)])[0];
}

const AUTHORITY_CACHE_MAX = 65_536;
const authorities = new Map<string, string>();

/**
 * pump's `pool-authority` PDA of a mint (`["pool-authority", mint]` under the pump program): the creator of the
 * mint's canonical pool. Memoized, bounded (cleared when full): a PDA search costs a few hashes and curve checks.
 */
export function pumpPoolAuthority(baseMint: string): string {
  let v = authorities.get(baseMint);
  if (v === undefined) {
    if (authorities.size >= AUTHORITY_CACHE_MAX) authorities.clear();
    v = pda(PUMP_PROGRAM_ID, [enc.encode('pool-authority'), key(baseMint)])[0];
    authorities.set(baseMint, v);
  }
  return v;
}
