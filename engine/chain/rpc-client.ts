/**
 * A small Solana JSON-RPC client over fetch: the account reads the ingest snapshot needs.
 * Retries transient failures (429, 5xx, network) with backoff; never used on a per-request hot path.
 */
import { EngineError } from '../errors.js';
import { JsonArrayStream } from './json-array-stream.js';
import { AccountPageBuilder, type RawAccount, type RpcAccount } from './rpc-account-pages.js';

export type { RpcAccount } from './rpc-account-pages.js';

/** getProgramAccounts filter in Solana's JSON shape. */
export type RpcFilter = { dataSize: number } | { memcmp: { offset: number; bytes: string; encoding?: 'base58' | 'base64' } };

/** A value read at a context slot. */
export interface WithSlot<T> {
  readonly slot: bigint;
  readonly value: T;
}

/** Options of {@link RpcClient}. */
export interface RpcClientOptions {
  readonly retries?: number;
  /** A call's time limit; for a streamed answer, the longest silence between two parts of it. */
  readonly timeoutMs?: number;
}

/** Receives the pages of a streamed account list with the answer's context slot. Runs before the next part of the
 * answer is read (the stream waits for it). */
export type AccountPageSink = (accounts: RpcAccount[], slot: bigint) => void;

/** Accounts per page of a streamed answer (default). */
export const DEFAULT_PAGE_ACCOUNTS = 2048;

/** Paths of a JSON-RPC answer the account stream reads. */
const ACCOUNT_LIST_TARGETS = {
  arrays: [['result', 'value'], ['result']],
  values: [['result', 'context'], ['error']],
} as const;

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
        const body = (await res.json()) as { result?: T; error?: { code: number; message: string; data?: unknown } };
        // Why data: the node's structured reason (a preflight's `err`, e.g. AlreadyProcessed) is matched, never the text.
        if (body.error) throw new EngineError('RPC_ERROR', `RPC ${method}: ${body.error.message}`, { code: body.error.code, data: body.error.data });
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

  /** Every account of a program matching the filters, with the context slot (the answer streamed, then gathered). */
  async getProgramAccounts(programId: string, filters: RpcFilter[], commitment = 'confirmed'): Promise<WithSlot<RpcAccount[]>> {
    return gather((sink) => this.getProgramAccountsPaged(programId, filters, commitment, sink));
  }

  /**
   * Every account of a program matching the filters, handed to `onPage` in pages as the answer arrives; returns
   * the context slot. The answer is never held whole: on mainnet a program's accounts are hundreds of megabytes of
   * JSON, more than one JavaScript string can hold. Solana's JSON-RPC has no paging of its own (`dataSlice` cuts
   * data, filters select), so the HTTP body is parsed as it streams. A retried call (transient failure midway)
   * hands over its pages again, from the start: receivers must accept an account twice.
   */
  async getProgramAccountsPaged(programId: string, filters: RpcFilter[], commitment: string, onPage: AccountPageSink, pageAccounts = DEFAULT_PAGE_ACCOUNTS): Promise<bigint> {
    return this.streamAccounts('getProgramAccounts', [programId, { encoding: 'base64', filters, commitment, withContext: true }], onPage, pageAccounts);
  }

  /** Accounts by address (chunks of 100), missing ones as null, with the lowest context slot of the chunks. */
  async getMultipleAccounts(addresses: readonly string[], commitment = 'confirmed'): Promise<WithSlot<(RpcAccount | null)[]>> {
    const out: (RpcAccount | null)[] = new Array(addresses.length).fill(null);
    let slot: bigint | undefined;
    await this.getMultipleAccountsPaged(addresses, commitment, (chunk, at, s) => {
      chunk.forEach((a, j) => (out[at + j] = a));
      slot = slot === undefined || s < slot ? s : slot;
    });
    return { slot: slot ?? 0n, value: out };
  }

  /**
   * Accounts by address in chunks of 100 (Solana's cap), up to `concurrency` chunks in flight, each handed to
   * `onChunk` as it arrives (not in order): the accounts (null when missing), the index of the chunk's first
   * address and its context slot. Rejects with the first failure once the chunks in flight have settled; the chunks
   * handed over until then stay handed over.
   */
  async getMultipleAccountsPaged(
    addresses: readonly string[],
    commitment: string,
    onChunk: (accounts: (RpcAccount | null)[], start: number, slot: bigint) => void,
    concurrency = 1,
  ): Promise<void> {
    let next = 0;
    let failure: unknown;
    const pages = new AccountPageBuilder();
    const worker = async (): Promise<void> => {
      while (failure === undefined && next < addresses.length) {
        const start = next;
        next += 100;
        const chunk = addresses.slice(start, start + 100);
        try {
          const r = await this.call<{ context: { slot: number }; value: (RawAccount | null)[] }>('getMultipleAccounts', [chunk, { encoding: 'base64', commitment }]);
          r.value.forEach((a, j) => a && pages.add(chunk[j]!, a));
          const found = pages.take();
          let k = 0;
          onChunk(r.value.map((a) => (a ? found[k++]! : null)), start, BigInt(r.context.slot));
        } catch (e) {
          failure ??= e;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, Math.ceil(addresses.length / 100))) }, worker));
    if (failure !== undefined) throw failure;
  }

  /** Token accounts owned by `owner` under one token program. */
  async getTokenAccountsByOwner(owner: string, programId: string, commitment = 'confirmed'): Promise<WithSlot<RpcAccount[]>> {
    return gather((sink) => this.streamAccounts('getTokenAccountsByOwner', [owner, { programId }, { encoding: 'base64', commitment }], sink, DEFAULT_PAGE_ACCOUNTS));
  }

  /**
   * One call whose result is a list of `{ pubkey, account }` (with or without a context), parsed as the body
   * arrives and handed over in pages; retried like {@link call}. Returns the context slot (0 without one).
   */
  private async streamAccounts(method: string, params: unknown[], onPage: AccountPageSink, pageAccounts: number): Promise<bigint> {
    let lastError: unknown;
    for (let attempt = 0; attempt <= this.retries; attempt++) {
      if (attempt > 0) await sleep(Math.min(2000, 100 * 2 ** (attempt - 1)));
      const abort = new AbortController();
      let timer = setTimeout(() => abort.abort(new EngineError('RPC_TIMEOUT', `RPC ${method} timed out`)), this.timeoutMs);
      // Errors of the receiver are not the network's: they end the call, never retry it.
      let receiverError: unknown;
      try {
        const res = await fetch(this.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params }),
          signal: abort.signal,
        });
        if (res.status === 429 || res.status >= 500 || res.body === null) {
          await res.body?.cancel();
          lastError = new EngineError('RPC_HTTP', `RPC ${method} answered HTTP ${res.status}`, { status: res.status });
          continue;
        }
        const pages = new AccountPageBuilder();
        let slot: bigint | null = null;
        // Pages read before the context (Agave writes it first; another server may not) wait for its slot.
        const early: RpcAccount[][] = [];
        const deliver = (page: RpcAccount[]) => {
          if (slot === null) early.push(page);
          else {
            try {
              onPage(page, slot);
            } catch (e) {
              receiverError = e;
              throw e;
            }
          }
        };
        const scan = new JsonArrayStream(ACCOUNT_LIST_TARGETS, {
          element: (bytes) => {
            const e = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as { pubkey: string; account: RawAccount };
            pages.add(e.pubkey, e.account);
            if (pages.size >= pageAccounts) deliver(pages.take());
          },
          value: (bytes, target) => {
            const v = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as { slot?: number; code?: number; message?: string };
            if (target === 1) throw new EngineError('RPC_ERROR', `RPC ${method}: ${v.message}`, { code: v.code });
            slot = BigInt(v.slot ?? 0);
            for (const page of early.splice(0)) deliver(page);
          },
        });
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          clearTimeout(timer);
          timer = setTimeout(() => abort.abort(new EngineError('RPC_TIMEOUT', `RPC ${method} went silent`)), this.timeoutMs);
          scan.write(chunk);
        }
        scan.end();
        slot ??= 0n;
        for (const page of early.splice(0)) deliver(page);
        if (pages.size > 0) deliver(pages.take());
        return slot;
      } catch (e) {
        if (receiverError !== undefined || (e as { code?: string }).code === 'RPC_ERROR') throw e;
        lastError = e;
      } finally {
        clearTimeout(timer);
      }
    }
    throw lastError instanceof Error ? lastError : new EngineError('RPC_FAILED', `RPC ${method} failed`);
  }
}

/** Gathers the pages of a streamed account list into one list. */
async function gather(run: (sink: AccountPageSink) => Promise<bigint>): Promise<WithSlot<RpcAccount[]>> {
  const value: RpcAccount[] = [];
  const slot = await run((page) => {
    for (const a of page) value.push(a);
  });
  return { slot, value };
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
