/**
 * Program-derived addresses of the pump.fun program and its neighbours (curve, Global, FeeConfig, creator vault,
 * event authority, volume accumulators, associated token accounts). Derived on first use and memoized: a PDA
 * costs a few SHA-256 and curve checks, and the engine does no work at import.
 */
import { PublicKey } from '@solana/web3.js';
import { PUMPFUN_PROGRAM_ID, PUMP_FEES_PROGRAM_ID } from './layout.js';

/** The SPL Associated Token Account program id. */
export const ASSOCIATED_TOKEN_PROGRAM_ID = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';

const enc = new TextEncoder();
const memo = new Map<string, [string, number]>();

function find(programId: string, seeds: readonly (string | Uint8Array)[], key: string): [string, number] {
  const hit = memo.get(key);
  if (hit) return hit;
  const [pk, bump] = PublicKey.findProgramAddressSync(
    seeds.map((s) => (typeof s === 'string' ? enc.encode(s) : s)),
    new PublicKey(programId),
  );
  const out: [string, number] = [pk.toBase58(), bump];
  // Bounded: a long-running builder must not grow without limit (mints are unbounded on pump.fun).
  if (memo.size > 100_000) memo.clear();
  memo.set(key, out);
  return out;
}

const bytes = (k: string): Uint8Array => new PublicKey(k).toBytes();

/** The Global PDA `["global"]` (mainnet `4wTV1YmiEkRvAtNtsSGPtUrqRYQMe5SKy2uB4Jjaxnjf`). */
export function globalAddress(): string {
  return find(PUMPFUN_PROGRAM_ID, ['global'], 'global')[0];
}

/** The FeeConfig PDA `["fee_config", pump program]` under pump-fees. */
export function feeConfigAddress(): string {
  return find(PUMP_FEES_PROGRAM_ID, ['fee_config', bytes(PUMPFUN_PROGRAM_ID)], 'fee_config')[0];
}

/** The BondingCurve PDA of a mint, `["bonding-curve", mint]`, with its bump. */
export function bondingCurveAddress(mint: string): [address: string, bump: number] {
  return find(PUMPFUN_PROGRAM_ID, ['bonding-curve', bytes(mint)], `bc:${mint}`);
}

/** The BondingCurveV2 PDA `["bonding-curve-v2", mint]` (a remaining account of buy and sell). */
export function bondingCurveV2Address(mint: string): string {
  return find(PUMPFUN_PROGRAM_ID, ['bonding-curve-v2', bytes(mint)], `bc2:${mint}`)[0];
}

/** The creator vault PDA `["creator-vault", creator]` (lamports of the creator fees). */
export function creatorVaultAddress(creator: string): string {
  return find(PUMPFUN_PROGRAM_ID, ['creator-vault', bytes(creator)], `cv:${creator}`)[0];
}

/** The Anchor event authority PDA `["__event_authority"]`. */
export function eventAuthorityAddress(): string {
  return find(PUMPFUN_PROGRAM_ID, ['__event_authority'], 'event_authority')[0];
}

/** The global volume accumulator PDA `["global_volume_accumulator"]`. */
export function globalVolumeAccumulatorAddress(): string {
  return find(PUMPFUN_PROGRAM_ID, ['global_volume_accumulator'], 'gva')[0];
}

/** A user's volume accumulator PDA `["user_volume_accumulator", user]`. */
export function userVolumeAccumulatorAddress(user: string): string {
  return find(PUMPFUN_PROGRAM_ID, ['user_volume_accumulator', bytes(user)], `uva:${user}`)[0];
}

/** The associated token account of `owner` for `mint` under `tokenProgram`. */
export function associatedTokenAddress(owner: string, mint: string, tokenProgram: string): string {
  return find(ASSOCIATED_TOKEN_PROGRAM_ID, [bytes(owner), bytes(tokenProgram), bytes(mint)], `ata:${owner}:${tokenProgram}:${mint}`)[0];
}
