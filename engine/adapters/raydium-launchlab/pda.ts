/**
 * The LaunchLab program's PDAs (seeds from the SDK's `raydium/launchpad/pda.ts`): the vault authority that owns
 * every pool vault and signs transfers out of them, the event authority, the fee vaults the swaps pay the platform
 * and creator fees into, and the pool, vault and config addresses. Derived on first use and cached where constant.
 */
import { PublicKey } from '@solana/web3.js';
import bs58 from 'bs58';
import { LAUNCHLAB_PROGRAM_ID } from './layout.js';

/** Seed of the vault authority PDA (`AUTH_SEED`). */
export const AUTH_SEED = 'vault_auth_seed';
/** Seed of the Anchor event-CPI authority. */
export const EVENT_AUTHORITY_SEED = '__event_authority';
/** Seed of the owner PDA of every platform fee vault. */
export const PLATFORM_FEE_VAULT_AUTH_SEED = 'platform_fee_vault_auth_seed';
/** Seed of the owner PDA of every creator fee vault. */
export const CREATOR_FEE_VAULT_AUTH_SEED = 'creator_fee_vault_auth_seed';

const enc = new TextEncoder();
let program: PublicKey | undefined;
const cache = new Map<string, readonly [string, number]>();

function pda(label: string, seeds: readonly Uint8Array[]): readonly [string, number] {
  let hit = cache.get(label);
  if (!hit) {
    program ??= new PublicKey(LAUNCHLAB_PROGRAM_ID);
    const [k, bump] = PublicKey.findProgramAddressSync(seeds.map((s) => Buffer.from(s)), program);
    hit = [k.toBase58(), bump] as const;
    // Only constant PDAs are cached (per-pool ones would grow the map without bound).
    if (seeds.length === 1) cache.set(label, hit);
  }
  return hit;
}

/** The vault authority PDA `["vault_auth_seed"]` and its bump. */
export function launchlabAuthority(): readonly [address: string, bump: number] {
  return pda(AUTH_SEED, [enc.encode(AUTH_SEED)]);
}

/** The event authority PDA `["__event_authority"]` (an account of every swap). */
export function launchlabEventAuthority(): string {
  return pda(EVENT_AUTHORITY_SEED, [enc.encode(EVENT_AUTHORITY_SEED)])[0];
}

/** Owner PDA of the platform fee vaults. */
export function platformFeeVaultAuthority(): string {
  return pda(PLATFORM_FEE_VAULT_AUTH_SEED, [enc.encode(PLATFORM_FEE_VAULT_AUTH_SEED)])[0];
}

/** Owner PDA of the creator fee vaults. */
export function creatorFeeVaultAuthority(): string {
  return pda(CREATOR_FEE_VAULT_AUTH_SEED, [enc.encode(CREATOR_FEE_VAULT_AUTH_SEED)])[0];
}

/** The platform fee vault `[platform_config, mint_b]` (token account the swaps pay the platform fee into). */
export function platformFeeVault(platformConfig: string, mintB: string): string {
  return pda('', [bs58.decode(platformConfig), bs58.decode(mintB)])[0];
}

/** The creator fee vault `[creator, mint_b]` (token account the swaps pay the creator fee into). */
export function creatorFeeVault(creator: string, mintB: string): string {
  return pda('', [bs58.decode(creator), bs58.decode(mintB)])[0];
}

/** The pool PDA `["pool", mint_a, mint_b]`. */
export function launchlabPoolAddress(mintA: string, mintB: string): string {
  return pda('', [enc.encode('pool'), bs58.decode(mintA), bs58.decode(mintB)])[0];
}

/** A pool vault PDA `["pool_vault", pool, mint]`. */
export function launchlabVaultAddress(pool: string, mint: string): string {
  return pda('', [enc.encode('pool_vault'), bs58.decode(pool), bs58.decode(mint)])[0];
}

/** The GlobalConfig PDA `["global_config", mint_b, curve_type u8, index u16 LE]`. */
export function globalConfigAddress(mintB: string, curveType: number, index: number): string {
  const idx = new Uint8Array(2);
  new DataView(idx.buffer).setUint16(0, index, true);
  return pda('', [enc.encode('global_config'), bs58.decode(mintB), Uint8Array.of(curveType), idx])[0];
}

/** The PlatformConfig PDA `["platform_config", platform_admin]`. */
export function platformConfigAddress(platformAdmin: string): string {
  return pda('', [enc.encode('platform_config'), bs58.decode(platformAdmin)])[0];
}
