/**
 * Symbol and mint resolution over a catalog: case-insensitive symbols, aliases, and the USD anchors.
 */
import { DEFAULT_CATALOG, USDC_MINT, USDT_MINT, WSOL_MINT, type CatalogToken } from './tokens.js';

/** Resolves symbols (case-insensitive, with aliases) and mints against one catalog. */
export class Catalog {
  readonly tokens: readonly CatalogToken[];
  private readonly bySymbol = new Map<string, CatalogToken>();
  private readonly byMint = new Map<string, CatalogToken>();

  constructor(tokens: readonly CatalogToken[] = DEFAULT_CATALOG) {
    this.tokens = tokens;
    for (const t of tokens) {
      this.bySymbol.set(t.symbol.toUpperCase(), t);
      for (const a of t.aliases) this.bySymbol.set(a.toUpperCase(), t);
      this.byMint.set(t.mint, t);
    }
  }

  /** The catalog entry for a symbol or alias, case-insensitive. */
  bySymbolName(symbol: string): CatalogToken | undefined {
    return this.bySymbol.get(symbol.toUpperCase());
  }

  /** The catalog entry of a mint (mints are case-sensitive). */
  byMintAddress(mint: string): CatalogToken | undefined {
    return this.byMint.get(mint);
  }

  /** Symbol or mint -> catalog entry, symbols first. */
  lookup(tokenOrMint: string): CatalogToken | undefined {
    return this.byMint.get(tokenOrMint) ?? this.bySymbol.get(tokenOrMint.toUpperCase());
  }

  /** The USD anchors: USDC and USDT. */
  get usdMints(): readonly string[] {
    return [USDC_MINT, USDT_MINT];
  }

  /** The preferred intermediate for multi-hop prices. */
  get solMint(): string {
    return WSOL_MINT;
  }
}
