/**
 * Loads the catalog: the default one, or a JSON file named by `CATALOG_FILE` (an array of catalog tokens), so
 * that an operator can correct or extend the tracked symbols without a rebuild.
 */
import { readFileSync } from 'node:fs';
import { EngineError } from '../errors.js';
import { DEFAULT_CATALOG, type CatalogToken } from './tokens.js';

/** The catalog tokens from `file`, or the default catalog when no file is given. */
export function loadCatalogTokens(file?: string): readonly CatalogToken[] {
  if (!file) return DEFAULT_CATALOG;
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
  if (!Array.isArray(parsed)) throw new EngineError('BAD_CONFIG', `CATALOG_FILE ${file} must hold a JSON array`);
  return parsed.map((t: Partial<CatalogToken>, i) => {
    if (typeof t.symbol !== 'string' || typeof t.mint !== 'string' || typeof t.decimals !== 'number') {
      throw new EngineError('BAD_CONFIG', `CATALOG_FILE entry ${i} needs symbol, mint and decimals`);
    }
    return { name: t.symbol, aliases: [], category: 'defi', ...t } as CatalogToken;
  });
}
