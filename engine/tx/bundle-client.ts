/**
 * A client of a Jito block engine's bundle API (JSON-RPC 2.0 on `<BLOCK_ENGINE_URL>/api/v1/bundles`): sendBundle,
 * getInflightBundleStatuses, getBundleStatuses and getTipAccounts (cached). Errors as `engine/chain/rpc-client.ts`
 * raises them: a JSON-RPC error is the engine's answer (`EngineError` `RPC_ERROR`, its code and `data` in the
 * context: the engine refused); anything else (network, timeout, HTTP 5xx, a body that is not JSON-RPC) means the
 * engine could not be asked, or its answer was lost.
 */
import { createHash } from 'node:crypto';
import { PublicKey } from '@solana/web3.js';
import { RpcClient } from '../chain/rpc-client.js';
import { EngineError } from '../errors.js';

/** How long the engine's tip accounts are reused before they are asked for again (Jito's list rarely changes). */
export const TIP_ACCOUNTS_TTL_MS = 10 * 60_000;

/** A bundle's state as `getInflightBundleStatuses` reports it (ids are remembered about 5 minutes). */
export interface InflightBundleStatus {
  readonly bundle_id: string;
  readonly status: 'Pending' | 'Landed' | 'Failed' | 'Invalid';
  readonly landed_slot: number | null;
}

/** What the swap submit needs of a block engine (the client below; tests may fake it). */
export interface BundleEngine {
  /** Sends the transactions (wire bytes, in order) as one bundle; resolves to the bundle id. */
  sendBundle(transactions: readonly Uint8Array[]): Promise<string>;
  /** In-flight statuses of up to 5 bundle ids. */
  inflightStatuses(ids: readonly string[]): Promise<InflightBundleStatus[]>;
  /** The engine's tip accounts (base58), sorted. */
  tipAccounts(): Promise<readonly string[]>;
}

/** Options of {@link BundleClient}. */
export interface BundleClientOptions {
  /** A call's time limit (default 5000 ms). */
  readonly timeoutMs?: number;
  /** Clock (tests). */
  readonly now?: () => number;
}

/** The bundle endpoint of a block engine's base URL (`https://mainnet.block-engine.jito.wtf` -> `.../api/v1/bundles`). */
export function bundleEndpoint(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return base.endsWith('/api/v1/bundles') ? base : `${base}/api/v1/bundles`;
}

/** A bundle's id as Jito derives it: SHA-256 of its transactions' first signatures joined with `,`, lowercase hex. */
export function bundleIdOf(signatures: readonly string[]): string {
  return createHash('sha256').update(signatures.join(',')).digest('hex');
}

/** The bundle API of one block engine. */
export class BundleClient implements BundleEngine {
  private readonly rpc: RpcClient;
  private readonly now: () => number;
  private tips: { readonly accounts: readonly string[]; readonly at: number } | null = null;
  private tipsLoading: Promise<readonly string[]> | null = null;

  constructor(readonly baseUrl: string, opts: BundleClientOptions = {}) {
    // Why no retries: a sendBundle that timed out may have reached the engine; the caller decides (SUBMISSION_FAILED).
    this.rpc = new RpcClient(bundleEndpoint(baseUrl), { retries: 0, timeoutMs: opts.timeoutMs ?? 5000 });
    this.now = opts.now ?? Date.now;
  }

  /** sendBundle with base64 transactions; resolves to the bundle id. */
  async sendBundle(transactions: readonly Uint8Array[]): Promise<string> {
    const id = await this.rpc.call<unknown>('sendBundle', [transactions.map((t) => Buffer.from(t).toString('base64')), { encoding: 'base64' }]);
    if (typeof id !== 'string' || id === '') throw new EngineError('BUNDLE_REPLY', `sendBundle answered ${JSON.stringify(id)}, not a bundle id`);
    return id;
  }

  /** getInflightBundleStatuses (`{ context, value: [...] }`). */
  async inflightStatuses(ids: readonly string[]): Promise<InflightBundleStatus[]> {
    const r = await this.rpc.call<{ value?: unknown }>('getInflightBundleStatuses', [ids]);
    if (!Array.isArray(r?.value)) throw new EngineError('BUNDLE_REPLY', 'getInflightBundleStatuses answered no value list');
    return r.value as InflightBundleStatus[];
  }

  /** The tip accounts, sorted; asked once per {@link TIP_ACCOUNTS_TTL_MS} (concurrent askers share one call). */
  async tipAccounts(): Promise<readonly string[]> {
    if (this.tips && this.now() - this.tips.at < TIP_ACCOUNTS_TTL_MS) return this.tips.accounts;
    this.tipsLoading ??= this.loadTipAccounts().finally(() => (this.tipsLoading = null));
    return this.tipsLoading;
  }

  private async loadTipAccounts(): Promise<readonly string[]> {
    const r = await this.rpc.call<unknown>('getTipAccounts', []);
    if (!Array.isArray(r) || r.length === 0 || !r.every(isAddress)) throw new EngineError('BUNDLE_REPLY', 'getTipAccounts answered no list of addresses');
    // Why sorted: the tip account of a transaction is picked by index, which must not depend on the engine's order.
    const accounts = [...(r as string[])].sort();
    this.tips = { accounts, at: this.now() };
    return accounts;
  }
}

function isAddress(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  try {
    return new PublicKey(v).toBase58() === v;
  } catch {
    return false;
  }
}
