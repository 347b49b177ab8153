/**
 * The catalog of tracked symbols, shared by the service and the localnet universe. Mints are mainnet mints;
 * the three wrapped tokens marked `unverifiedMint` carry placeholder mints (sha256 of `catalog:<symbol>`) until an operator
 * supplies real ones through `CATALOG_FILE` (see README).
 */
export interface CatalogToken {
  readonly symbol: string;
  readonly name: string;
  readonly mint: string;
  readonly decimals: number;
  /** Other names that resolve to this symbol (the spec's aliases: BTC -> WBTC, ...). */
  readonly aliases: readonly string[];
  /** Category shown by search. */
  readonly category: 'native' | 'stablecoin' | 'wrapped' | 'lst' | 'defi' | 'meme';
  readonly unverifiedMint?: boolean;
}

/** Wrapped SOL mint. */
export const WSOL_MINT = 'So11111111111111111111111111111111111111112';
/** USDC mint. */
export const USDC_MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
/** USDT mint. */
export const USDT_MINT = 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB';

/** The default catalog. */
export const DEFAULT_CATALOG: readonly CatalogToken[] = [
  { symbol: 'SOL', name: 'Wrapped SOL', mint: WSOL_MINT, decimals: 9, aliases: ['WSOL'], category: 'native' },
  { symbol: 'USDC', name: 'USD Coin', mint: USDC_MINT, decimals: 6, aliases: [], category: 'stablecoin' },
  { symbol: 'USDT', name: 'USDT', mint: USDT_MINT, decimals: 6, aliases: [], category: 'stablecoin' },
  { symbol: 'WBTC', name: 'Wrapped BTC (Wormhole)', mint: '3NZ9JMVBmGAqocybic2c7LQCJScmgsAZ6vQqTDzcqmJh', decimals: 8, aliases: ['BTC'], category: 'wrapped' },
  { symbol: 'WETH', name: 'Wrapped Ether (Wormhole)', mint: '7vfCXTUXx5WJV5JADk17DUJ4ksgau7utNKj4b963voxs', decimals: 8, aliases: ['ETH'], category: 'wrapped' },
  { symbol: 'wDOGE', name: 'Wrapped DOGE', mint: 'BYdjuVQc9RTNszVJ9ST4CMKep2a5tttPeD2sqijLFLnY', decimals: 8, aliases: ['DOGE'], category: 'wrapped', unverifiedMint: true },
  { symbol: 'wSHIB', name: 'Wrapped SHIB', mint: '3DMBWLwzT4J69TBPfzxFqzsynbA1deHcXF6j1MD697TX', decimals: 8, aliases: ['SHIB'], category: 'wrapped', unverifiedMint: true },
  { symbol: 'wNEAR', name: 'Wrapped NEAR', mint: '6wi3oz24K19SdRcMWc4mAspTDS5tEmqXvLv5wfuQXUC5', decimals: 8, aliases: ['NEAR'], category: 'wrapped', unverifiedMint: true },
  { symbol: 'mSOL', name: 'Marinade staked SOL', mint: 'mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So', decimals: 9, aliases: [], category: 'lst' },
  { symbol: 'JitoSOL', name: 'Jito Staked SOL', mint: 'J1toso1uCk3RLmjorhTtrVwY9HJ7X8V9yYac6Y7kGCPn', decimals: 9, aliases: [], category: 'lst' },
  { symbol: 'JUP', name: 'Jupiter', mint: 'JUPyiwrYJFskUPiHa7hkeR8VUtAeFoSYbKedZNsDvCN', decimals: 6, aliases: [], category: 'defi' },
  { symbol: 'RAY', name: 'Raydium', mint: '4k3Dyjzvzp8eMZWUXbBCjEvwSkkk59S5iCNLY3QrkX6R', decimals: 6, aliases: [], category: 'defi' },
  { symbol: 'ORCA', name: 'Orca', mint: 'orcaEKTdK7LKz57vaAYr9QeNsVEPfiu6QeMU1kektZE', decimals: 6, aliases: [], category: 'defi' },
  { symbol: 'PYTH', name: 'Pyth Network', mint: 'HZ1JovNiVvGrGNiiYvEozEVgZ58xaU3RKwX8eACQBCt3', decimals: 6, aliases: [], category: 'defi' },
  { symbol: 'JTO', name: 'Jito', mint: 'jtojtomepa8beP8AuQc6eXt5FriJwfFMwQx2v2f9mCL', decimals: 9, aliases: [], category: 'defi' },
  { symbol: 'BONK', name: 'Bonk', mint: 'DezXAZ8z7PnrnRJjz3wXBoRgixCa6xjnB7YaB1pPB263', decimals: 5, aliases: [], category: 'meme' },
  { symbol: 'WIF', name: 'dogwifhat', mint: 'EKpQGSJtjMFqKZ9KQanSqYXRcF8fBopzLHYxdM65zcjm', decimals: 6, aliases: [], category: 'meme' },
];
