/**
 * The one list of DEX adapters, validated when the module loads (unique DEX ids, unique program ids, DEX
 * ids from the catalog), with lookups by program id and by DEX id. Adding a DEX: see ./README.md.
 */
import { DEX_IDS, type DexId } from '../dex-ids.js';
import { EngineError } from '../errors.js';
import { meteoraDbcAdapter } from './meteora-dbc/index.js';
import { pumpfunAdapter } from './pumpfun/index.js';
import { pumpswapAdapter } from './pumpswap/index.js';
import { raydiumAmmV4Adapter } from './raydium-amm-v4/index.js';
import { raydiumCpmmAdapter } from './raydium-cpmm/index.js';
import { raydiumLaunchlabAdapter } from './raydium-launchlab/index.js';
import type { DexAdapter } from './types.js';

/** Every adapter the service runs, in no particular order. */
export const ADAPTERS: readonly DexAdapter[] = Object.freeze([raydiumCpmmAdapter as DexAdapter, raydiumAmmV4Adapter as DexAdapter, raydiumLaunchlabAdapter as DexAdapter, pumpswapAdapter as DexAdapter, pumpfunAdapter as DexAdapter, meteoraDbcAdapter as DexAdapter]);

/**
 * Checks a list of adapters: DEX ids known and unique, program ids unique. Throws EngineError
 * `ADAPTER_REGISTRY_INVALID` (bad configuration, found at startup rather than on the first swap).
 */
export function validateAdapters(adapters: readonly DexAdapter[]): {
  byProgramId: ReadonlyMap<string, DexAdapter>;
  byDex: ReadonlyMap<DexId, DexAdapter>;
} {
  const byProgramId = new Map<string, DexAdapter>();
  const byDex = new Map<DexId, DexAdapter>();
  for (const a of adapters) {
    if (!(DEX_IDS as readonly string[]).includes(a.dex)) {
      throw new EngineError('ADAPTER_REGISTRY_INVALID', `unknown DEX id ${a.dex}`, { dex: a.dex });
    }
    if (byDex.has(a.dex)) throw new EngineError('ADAPTER_REGISTRY_INVALID', `duplicate DEX id ${a.dex}`, { dex: a.dex });
    if (byProgramId.has(a.programId)) {
      throw new EngineError('ADAPTER_REGISTRY_INVALID', `duplicate program id ${a.programId}`, {
        programId: a.programId,
        dexes: [byProgramId.get(a.programId)!.dex, a.dex],
      });
    }
    byDex.set(a.dex, a);
    byProgramId.set(a.programId, a);
  }
  return { byProgramId, byDex };
}

const index = validateAdapters(ADAPTERS);

/** The adapter owning program `programId` (base58), or undefined. */
export function adapterByProgramId(programId: string): DexAdapter | undefined {
  return index.byProgramId.get(programId);
}

/** The adapter of DEX `dex`, or undefined while that DEX has none yet. */
export function adapterByDex(dex: DexId): DexAdapter | undefined {
  return index.byDex.get(dex);
}
