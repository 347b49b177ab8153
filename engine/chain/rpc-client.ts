/**
 * A small Solana JSON-RPC client over fetch: the account reads the ingest snapshot needs.
 * Retries transient failures (429, 5xx, network) with backoff; never used on a per-request hot path.
 */
import { EngineError } from '../errors.js';

/** An account as returned by RPC, data decoded from base64. */
export interface RpcAccount {
  readonly address: string;
  readonly owner: string;
  readonly lamports: bigint;
  readonly data: Uint8Array;
  readonly executable: boolean;
}

/** getProgramAccounts filter in Solana's JSON shape. */
export type RpcFilter = { dataSize: number } | { memcmp: { offset: number; bytes: string; encoding?: 'base58' | 'base64' } };

/** A value read at a context slot. */
export interface WithSlot<T> {
  readonly slot: bigint;
  readonly value: T;
}

interface RawAccount {
  data: [string, string];
  owner: string;
  lamports: number;
  executable: boolean;
}

/** Options of {@link RpcClient}. */
export interface RpcClientOptions {
  readonly retries?: number;
  readonly timeoutMs?: number;
}

/** JSON-RPC client bound to one endpoint. */
export class RpcClient {
  private nextId = 1;
  private readonly retries: number;
  private readonly timeoutMs: number;

  constructor(readonly url: string, opts: RpcClientOptions = {}) {
    this.retries = opts.retries ?? 4;
    this.timeoutMs = opts.timeoutMs ?? 30_000;
  }

  /** One JSON-RPC call with retries on transient failures. */
  async call<T>(method: string, params: unknown[]): Promise<T> {
    let lastError: unknown;
    for (let attempt = 0; attempt <= this.retries; attempt++) {
      if (attempt > 0) await sleep(Math.min(2000, 100 * 2 ** (attempt - 1)));
      try {
        const res = await fetch(this.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params }),
          signal: AbortSignal.timeout(this.timeoutMs),
        });
        if (res.status === 429 || res.status >= 500) {
          lastError = new EngineError('RPC_HTTP', `RPC ${method} answered HTTP ${res.status}`, { status: res.status });
          continue;
        }
        const body = (await res.json()) as { result?: T; error?: { code: number; message: string } };
        if (body.error) throw new EngineError('RPC_ERROR', `RPC ${method}: ${body.error.message}`, { code: body.error.code });
        return body.result as T;
      } catch (e) {
        if ((e as { code?: string }).code === 'RPC_ERROR') throw e;
        lastError = e;
      }
    }
    throw lastError instanceof Error ? lastError : new EngineError('RPC_FAILED', `RPC ${method} failed`);
  }

  /** Current slot at a commitment. */
  async getSlot(commitment = 'confirmed'): Promise<bigint> {
    return BigInt(await this.call<number>('getSlot', [{ commitment }]));
  }

  /** The cluster's genesis hash (identifies the chain: a different cluster or a fresh ledger has another). */
  async getGenesisHash(): Promise<string> {
    return this.call<string>('getGenesisHash', []);
  }

  /** Every account of a program matching the filters, with the context slot. */
  async getProgramAccounts(programId: string, filters: RpcFilter[], commitment = 'confirmed'): Promise<WithSlot<RpcAccount[]>> {
    const r = await this.call<{ context: { slot: number }; value: { pubkey: string; account: RawAccount }[] }>(
      'getProgramAccounts',
      [programId, { encoding: 'base64', filters, commitment, withContext: true }],
    );
    return { slot: BigInt(r.context.slot), value: r.value.map((v) => toAccount(v.pubkey, v.account)) };
  }

  /** Accounts by address (chunks of 100), missing ones as null, with the lowest context slot of the chunks. */
  async getMultipleAccounts(addresses: readonly string[], commitment = 'confirmed'): Promise<WithSlot<(RpcAccount | null)[]>> {
    const out: (RpcAccount | null)[] = [];
    let slot: bigint | undefined;
    for (let i = 0; i < addresses.length; i += 100) {
      const chunk = addresses.slice(i, i + 100);
      const r = await this.call<{ context: { slot: number }; value: (RawAccount | null)[] }>('getMultipleAccounts', [
        chunk,
        { encoding: 'base64', commitment },
      ]);
      const s = BigInt(r.context.slot);
      slot = slot === undefined || s < slot ? s : slot;
      r.value.forEach((a, j) => out.push(a ? toAccount(chunk[j]!, a) : null));
    }
    return { slot: slot ?? 0n, value: out };
  }

  /** Token accounts owned by `owner` under one token program. */
  async getTokenAccountsByOwner(owner: string, programId: string, commitment = 'confirmed'): Promise<WithSlot<RpcAccount[]>> {
    const r = await this.call<{ context: { slot: number }; value: { pubkey: string; account: RawAccount }[] }>(
      'getTokenAccountsByOwner',
      [owner, { programId }, { encoding: 'base64', commitment }],
    );
    return { slot: BigInt(r.context.slot), value: r.value.map((v) => toAccount(v.pubkey, v.account)) };
  }
}

function toAccount(address: string, a: RawAccount): RpcAccount {
  return {
    address,
    owner: a.owner,
    lamports: BigInt(a.lamports),
    data: new Uint8Array(Buffer.from(a.data[0], 'base64')),
    executable: a.executable,
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
