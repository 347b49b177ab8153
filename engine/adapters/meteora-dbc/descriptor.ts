/**
 * The PoolDescriptor of a DBC pool. The VirtualPool names its base mint but not its quote mint nor either
 * decimals: those are in the PoolConfig (quote_mint, token_decimal). With the config at hand the descriptor is
 * exact; without it the quote mint is recovered from the pool's quote vault, the PDA
 * ["token_vault", quote_mint, pool], tried against the known DBC quote mints.
 */
import { PublicKey } from '@solana/web3.js';
import { UNKNOWN_DECIMALS, type PoolDescriptor } from '../types.js';
import { CONFIG_OFFSET, DBC_PROGRAM_ID, decodeVirtualPool, isPoolConfigAccount, isVirtualPoolAccount } from './layout.js';
import bs58 from 'bs58';

/** PDA seed of the pool vaults (`["token_vault", mint, pool]`). */
export const TOKEN_VAULT_SEED = 'token_vault';

/** Quote mints DBC configs use, with their decimals (WSOL, USDC, USDT). */
export const KNOWN_QUOTE_MINTS: readonly (readonly [string, number])[] = [
  ['So11111111111111111111111111111111111111112', 9],
  ['EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 6],
  ['Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', 6],
];

/** The vault PDA of `mint` in `pool`, base58. */
export function dbcVaultAddress(pool: string, mint: string): string {
  return PublicKey.findProgramAddressSync(
    [new TextEncoder().encode(TOKEN_VAULT_SEED), bs58.decode(mint), bs58.decode(pool)],
    new PublicKey(DBC_PROGRAM_ID),
  )[0].toBase58();
}

/**
 * Describes a DBC pool. `config` (the PoolConfig data) gives the quote mint and the base decimals exactly;
 * `mintDecimals` supplies decimals known elsewhere. Null when `data` is not a VirtualPool or when the quote mint
 * cannot be determined (no config and a quote mint outside {@link KNOWN_QUOTE_MINTS}).
 */
export function describeDbcPool(
  address: string,
  data: Uint8Array,
  config?: Uint8Array,
  mintDecimals?: (mint: string) => number | undefined,
): PoolDescriptor | null {
  if (!isVirtualPoolAccount(data)) return null;
  const p = decodeVirtualPool(data);
  let quoteMint: string | undefined;
  let baseDecimals: number | undefined = mintDecimals?.(p.baseMint);
  if (config && isPoolConfigAccount(config)) {
    quoteMint = bs58.encode(config.subarray(CONFIG_OFFSET.quoteMint, CONFIG_OFFSET.quoteMint + 32));
    baseDecimals ??= config[CONFIG_OFFSET.tokenDecimal];
  } else {
    quoteMint = KNOWN_QUOTE_MINTS.find(([m]) => dbcVaultAddress(address, m) === p.quoteVault)?.[0];
  }
  if (quoteMint === undefined) return null;
  const quoteDecimals = mintDecimals?.(quoteMint) ?? KNOWN_QUOTE_MINTS.find(([m]) => m === quoteMint)?.[1] ?? UNKNOWN_DECIMALS;
  return {
    address,
    dex: 'meteora-dbc',
    programId: DBC_PROGRAM_ID,
    mintA: p.baseMint,
    mintB: quoteMint,
    // Without the config (token_decimal) nor the mint table, ingest reads the mint account.
    decimalsA: baseDecimals ?? UNKNOWN_DECIMALS,
    decimalsB: quoteDecimals,
    dependencies: [p.config],
  };
}
