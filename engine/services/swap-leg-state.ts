/**
 * One quoted hop's pool as the chain holds it now, read over JSON-RPC the way ingest describes a pool: the pool
 * account, its mints and the Clock sysvar; the descriptor inputs (or the token accounts the pool owns, for pools
 * that do not name their mints); then the pool's dependencies. Decoded with the hop's adapter into what the build
 * needs: the descriptor, the accounts `swapInstruction` reads, the quotable state, and the mints' token programs.
 */
import type { RpcClient } from '../chain/rpc-client.js';
import { decodeMint, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '../adapters/common/spl-layouts.js';
import { adapterByDex } from '../adapters/registry.js';
import type { DescriptorInput, DexAdapter, PoolDescriptor } from '../adapters/types.js';
import type { DexId } from '../dex-ids.js';
import { EngineError } from '../errors.js';
import { CLOCK_SYSVAR, decodeClock } from '../ingest/clock.js';

/** The JSON-RPC calls the build makes (`RpcClient.call`). */
export type SwapBuildRpc = Pick<RpcClient, 'call'>;

/** The fields of a stored quote's hop the build reads. */
export interface StoredHop {
  readonly dex: string;
  readonly poolAddress: string;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly inAmount: string;
  readonly outAmount: string;
}

/** A hop's pool now. `state` is null while the adapter cannot build it (a dependency missing). */
export interface LegState {
  readonly hop: StoredHop;
  readonly adapter: DexAdapter;
  readonly pool: PoolDescriptor;
  readonly aToB: boolean;
  /** Pool, dependencies and mints by address (what `swapInstruction` may read). */
  readonly accounts: ReadonlyMap<string, Uint8Array>;
  readonly state: unknown;
  /** Token program of the hop's input and output mints. */
  readonly tokenPrograms: ReadonlyMap<string, string>;
}

interface RawAccount {
  readonly owner: string;
  readonly data: readonly [string, string];
}

/** One account read. */
export interface ReadAccount {
  readonly owner: string;
  readonly data: Uint8Array;
}

/** Accounts by address at processed commitment (null when missing); at most 100 addresses. */
export async function readAccounts(rpc: SwapBuildRpc, keys: readonly string[]): Promise<(ReadAccount | null)[]> {
  if (keys.length === 0) return [];
  const r = await rpc.call<{ value: (RawAccount | null)[] }>('getMultipleAccounts', [keys, { encoding: 'base64', commitment: 'processed' }]);
  return r.value.map((a) => (a ? { owner: a.owner, data: new Uint8Array(Buffer.from(a.data[0], 'base64')) } : null));
}

async function ownedTokenAccounts(rpc: SwapBuildRpc, owner: string): Promise<Map<string, DescriptorInput>> {
  const out = new Map<string, DescriptorInput>();
  for (const programId of [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID]) {
    const r = await rpc.call<{ value: { pubkey: string; account: RawAccount }[] }>('getTokenAccountsByOwner', [owner, { programId }, { encoding: 'base64', commitment: 'processed' }]);
    for (const { pubkey, account } of r.value) out.set(pubkey, { owner: programId, data: new Uint8Array(Buffer.from(account.data[0], 'base64')) });
  }
  return out;
}

const broken = (hop: StoredHop, why: string): EngineError => new EngineError('LEG_UNREADABLE', `hop ${hop.dex} ${hop.poolAddress}: ${why}`, { pool: hop.poolAddress });

/** Reads and decodes one hop's pool now. Throws EngineError `LEG_UNREADABLE` when the pool is not what the hop says. */
export async function readLegState(rpc: SwapBuildRpc, hop: StoredHop): Promise<LegState> {
  const adapter = adapterByDex(hop.dex as DexId);
  if (!adapter) throw broken(hop, 'no adapter for the DEX');
  const [poolInfo, mintIn, mintOut, clockInfo] = await readAccounts(rpc, [hop.poolAddress, hop.inputMint, hop.outputMint, CLOCK_SYSVAR]);
  if (!poolInfo || poolInfo.owner !== adapter.programId) throw broken(hop, 'not an account of the DEX program');
  if (!mintIn || !mintOut || !clockInfo) throw broken(hop, 'mints or Clock sysvar not found');
  const mints = new Map([
    [hop.inputMint, mintIn],
    [hop.outputMint, mintOut],
  ]);
  const decimals = (mint: string): number | undefined => {
    const m = mints.get(mint);
    return m ? decodeMint(m.data).decimals : undefined;
  };
  const inputKeys = adapter.descriptorInputs?.(poolInfo.data) ?? [];
  const inputs = new Map<string, DescriptorInput>();
  (await readAccounts(rpc, inputKeys)).forEach((a, i) => a && inputs.set(inputKeys[i]!, a));
  if (adapter.describedByOwnedTokenAccounts) for (const [k, v] of await ownedTokenAccounts(rpc, hop.poolAddress)) inputs.set(k, v);
  const pool = adapter.decodePool(hop.poolAddress, poolInfo.data, decimals, inputs);
  if (!pool) throw broken(hop, 'does not decode as a pool of the DEX');
  const aToB = pool.mintA === hop.inputMint;
  const [from, to] = aToB ? [pool.mintA, pool.mintB] : [pool.mintB, pool.mintA];
  if (from !== hop.inputMint || to !== hop.outputMint) throw broken(hop, `holds ${pool.mintA}/${pool.mintB}, not ${hop.inputMint} -> ${hop.outputMint}`);
  const accounts = new Map<string, Uint8Array>([[hop.poolAddress, poolInfo.data]]);
  (await readAccounts(rpc, pool.dependencies)).forEach((a, i) => a && accounts.set(pool.dependencies[i]!, a.data));
  const deps = new Map(accounts);
  deps.delete(hop.poolAddress);
  for (const [mint, info] of mints) if (!accounts.has(mint)) accounts.set(mint, info.data);
  const state = adapter.buildState(pool, poolInfo.data, deps, decodeClock(clockInfo.data));
  const tokenPrograms = new Map([
    [hop.inputMint, mintIn.owner],
    [hop.outputMint, mintOut.owner],
  ]);
  return { hop, adapter, pool, aToB, accounts, state, tokenPrograms };
}
