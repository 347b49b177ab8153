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
import { EngineError, isEngineError } from '../errors.js';
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

/** The node's JSON-RPC code for "Minimum context slot has not been reached" (Agave). */
const MIN_CONTEXT_SLOT_NOT_REACHED = -32016;
/** Waits for a node behind the quote's slot: 5 tries, 100 ms apart (a slot is 400 ms). */
const BEHIND_RETRIES = 5;
const BEHIND_WAIT_MS = 100;

/**
 * One read at processed commitment, no older than `minContextSlot` when given (the slot the quote was computed at:
 * a node behind the service's Geyser stream must not re-quote on older state than the quote saw). A node behind
 * that slot is asked again a few times before the error goes up.
 */
async function readAt<T>(rpc: SwapBuildRpc, method: string, params: unknown[], minContextSlot?: number): Promise<T> {
  const config = params[params.length - 1] as Record<string, unknown>;
  if (minContextSlot !== undefined) config.minContextSlot = minContextSlot;
  for (let attempt = 0; ; attempt++) {
    try {
      return await rpc.call<T>(method, params);
    } catch (e) {
      const behind = isEngineError(e, 'RPC_ERROR') && e.context.code === MIN_CONTEXT_SLOT_NOT_REACHED;
      if (!behind || attempt + 1 >= BEHIND_RETRIES) throw e;
      await new Promise((r) => setTimeout(r, BEHIND_WAIT_MS));
    }
  }
}

/** Accounts by address at processed commitment (null when missing); at most 100 addresses; see {@link readAt}. */
export async function readAccounts(rpc: SwapBuildRpc, keys: readonly string[], minContextSlot?: number): Promise<(ReadAccount | null)[]> {
  if (keys.length === 0) return [];
  const r = await readAt<{ value: (RawAccount | null)[] }>(rpc, 'getMultipleAccounts', [keys, { encoding: 'base64', commitment: 'processed' }], minContextSlot);
  return r.value.map((a) => (a ? { owner: a.owner, data: new Uint8Array(Buffer.from(a.data[0], 'base64')) } : null));
}

async function ownedTokenAccounts(rpc: SwapBuildRpc, owner: string, minContextSlot?: number): Promise<Map<string, DescriptorInput>> {
  const out = new Map<string, DescriptorInput>();
  for (const programId of [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID]) {
    const r = await readAt<{ value: { pubkey: string; account: RawAccount }[] }>(rpc, 'getTokenAccountsByOwner', [owner, { programId }, { encoding: 'base64', commitment: 'processed' }], minContextSlot);
    for (const { pubkey, account } of r.value) out.set(pubkey, { owner: programId, data: new Uint8Array(Buffer.from(account.data[0], 'base64')) });
  }
  return out;
}

const broken = (hop: StoredHop, why: string): EngineError => new EngineError('LEG_UNREADABLE', `hop ${hop.dex} ${hop.poolAddress}: ${why}`, { pool: hop.poolAddress });

/**
 * Reads and decodes one hop's pool now, no older than `minContextSlot` when given (the quote's slot). Throws
 * EngineError `LEG_UNREADABLE` when the pool is not what the hop says.
 */
export async function readLegState(rpc: SwapBuildRpc, hop: StoredHop, minContextSlot?: number): Promise<LegState> {
  const adapter = adapterByDex(hop.dex as DexId);
  if (!adapter) throw broken(hop, 'no adapter for the DEX');
  const [poolInfo, mintIn, mintOut, clockInfo] = await readAccounts(rpc, [hop.poolAddress, hop.inputMint, hop.outputMint, CLOCK_SYSVAR], minContextSlot);
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
  (await readAccounts(rpc, inputKeys, minContextSlot)).forEach((a, i) => a && inputs.set(inputKeys[i]!, a));
  if (adapter.describedByOwnedTokenAccounts) for (const [k, v] of await ownedTokenAccounts(rpc, hop.poolAddress, minContextSlot)) inputs.set(k, v);
  const pool = adapter.decodePool(hop.poolAddress, poolInfo.data, decimals, inputs);
  if (!pool) throw broken(hop, 'does not decode as a pool of the DEX');
  const aToB = pool.mintA === hop.inputMint;
  const [from, to] = aToB ? [pool.mintA, pool.mintB] : [pool.mintB, pool.mintA];
  if (from !== hop.inputMint || to !== hop.outputMint) throw broken(hop, `holds ${pool.mintA}/${pool.mintB}, not ${hop.inputMint} -> ${hop.outputMint}`);
  const accounts = new Map<string, Uint8Array>([[hop.poolAddress, poolInfo.data]]);
  (await readAccounts(rpc, pool.dependencies, minContextSlot)).forEach((a, i) => a && accounts.set(pool.dependencies[i]!, a.data));
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
