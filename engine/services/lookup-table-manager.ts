/**
 * The service's address lookup tables (`POST /v1/swap/build`): the tables its table wallet owns, found at start
 * with `getProgramAccounts` (memcmp on the authority at offset 22) so a restart reuses them, and new ones made when
 * a route's accounts are not covered. A creation sends the create-and-extend transaction (and further extends when
 * the accounts do not fit one), waits until each is confirmed, then until the confirmed slot is past the table's
 * last extension (addresses appended in a slot are not usable by that slot's transactions), every wait bounded.
 * Creations run one at a time (each needs its own recent slot: the table address is derived from it) and one per
 * account set: concurrent builds over the same pools share one creation.
 */
import type { Keypair } from '@solana/web3.js';
import {
  ACTIVE_TABLE_DEACTIVATION_SLOT,
  ADDRESS_LOOKUP_TABLE_PROGRAM,
  decodeLookupTableAccount,
  LOOKUP_TABLE_AUTHORITY_OFFSET,
  LOOKUP_TABLE_MAX_ADDRESSES,
  LOOKUP_TABLE_META_SIZE,
} from '../tx/lookup-table-layout.js';
import { selectLookupTables } from '../tx/lookup-table-select.js';
import { tableCreationTransactions } from '../tx/lookup-table-transactions.js';
import type { LookupTableRef } from '../tx/swap-transaction.js';
import type { SwapBuildRpc } from './swap-leg-state.js';

/** Lamports of one signature's fee. */
const SIGNATURE_FEE = 5000n;

/** A creation's outcome: the table, or why there is none (`unfunded`: the wallet cannot pay; `failed`: the node). */
export type TableCreationOutcome = { readonly ok: true; readonly table: LookupTableRef } | { readonly ok: false; readonly reason: 'unfunded' | 'failed'; readonly message: string };

/** What the manager needs. */
export interface LookupTableManagerDeps {
  readonly rpc: SwapBuildRpc;
  /** The table wallet: authority of the tables and payer of their rent and fees. */
  readonly wallet: Keypair;
  /** A recent blockhash for the table transactions (the build's cache), or null when none yet. */
  readonly blockhash: () => string | null;
  /** Poll interval and the bound of each wait (a transaction confirmed, a slot passed). Defaults 100 ms, 20 s. */
  readonly pollMs?: number;
  readonly waitMs?: number;
  readonly log?: (level: 'info' | 'warn', msg: string, ctx?: Record<string, unknown>) => void;
}

interface ProgramAccount {
  readonly pubkey: string;
  readonly account: { readonly data: readonly [string, string] };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The lookup tables of the service's wallet. */
export class LookupTableManager {
  /** The wallet's address (the tables' authority). */
  readonly authority: string;
  private readonly held = new Map<string, LookupTableRef>();
  private readonly inFlight = new Map<string, Promise<TableCreationOutcome>>();
  private queue: Promise<unknown> = Promise.resolve();
  private loading: Promise<void> | null = null;
  private lastRecentSlot = -1n;
  private readonly pollMs: number;
  private readonly waitMs: number;
  /** Tables this process created (for the log and tests). */
  created = 0;

  constructor(private readonly deps: LookupTableManagerDeps) {
    this.authority = deps.wallet.publicKey.toBase58();
    this.pollMs = deps.pollMs ?? 100;
    this.waitMs = deps.waitMs ?? 20_000;
  }

  /** The tables held now. */
  tables(): LookupTableRef[] {
    return [...this.held.values()];
  }

  /**
   * Finds the wallet's active tables on chain (once; a failed search is tried again at the next call). Every build
   * that needs tables awaits it first, so a restarted service reuses its tables instead of making new ones.
   */
  load(): Promise<void> {
    this.loading ??= this.discover().catch((e: unknown) => {
      this.loading = null;
      this.deps.log?.('warn', 'lookup tables: getProgramAccounts failed', { err: e instanceof Error ? e.message : String(e) });
    });
    return this.loading;
  }

  private async discover(): Promise<void> {
    const found = await this.deps.rpc.call<ProgramAccount[]>('getProgramAccounts', [
      ADDRESS_LOOKUP_TABLE_PROGRAM,
      { encoding: 'base64', commitment: 'confirmed', filters: [{ memcmp: { offset: LOOKUP_TABLE_AUTHORITY_OFFSET, bytes: this.authority } }] },
    ]);
    for (const a of found) {
      const t = decodeLookupTableAccount(Buffer.from(a.account.data[0], 'base64'));
      if (!t || t.authority !== this.authority || t.deactivationSlot !== ACTIVE_TABLE_DEACTIVATION_SLOT || t.addresses.length === 0) continue;
      this.held.set(a.pubkey, { address: a.pubkey, addresses: t.addresses });
    }
    this.deps.log?.('info', 'lookup tables found', { authority: this.authority, tables: this.held.size });
  }

  /** The held tables worth using for `candidates`, and what none of them holds (`lookup-table-select.ts`). */
  select(candidates: readonly string[]): { tables: LookupTableRef[]; uncovered: string[] } {
    return selectLookupTables(candidates, this.tables());
  }

  /**
   * A new table holding `addresses` (at most 256), usable once this resolves. The same set asked again while its
   * creation runs shares that creation.
   */
  create(addresses: readonly string[]): Promise<TableCreationOutcome> {
    const list = addresses.slice(0, LOOKUP_TABLE_MAX_ADDRESSES);
    const key = [...list].sort().join(',');
    const running = this.inFlight.get(key);
    if (running) return running;
    const p = this.queue.then(() => this.createNow(list));
    this.queue = p.catch(() => undefined);
    this.inFlight.set(key, p);
    void p.finally(() => this.inFlight.delete(key));
    return p;
  }

  private async createNow(addresses: readonly string[]): Promise<TableCreationOutcome> {
    const rpc = this.deps.rpc;
    try {
      // Another build may have made a table holding these meanwhile.
      const again = this.select(addresses);
      if (again.uncovered.length === 0) return { ok: true, table: again.tables[0]! };
      const rent = BigInt(await rpc.call<number>('getMinimumBalanceForRentExemption', [LOOKUP_TABLE_META_SIZE + 32 * addresses.length]));
      const balance = BigInt((await rpc.call<{ value: number }>('getBalance', [this.authority, { commitment: 'confirmed' }])).value);
      const recentSlot = await this.freshSlot();
      const blockhash = this.deps.blockhash();
      if (blockhash === null) return { ok: false, reason: 'failed', message: 'no recent blockhash for the table transactions' };
      const creation = tableCreationTransactions(this.deps.wallet, recentSlot, addresses, blockhash);
      const need = rent + SIGNATURE_FEE * BigInt(creation.transactions.length);
      if (balance < need) {
        return { ok: false, reason: 'unfunded', message: `the table wallet ${this.authority} holds ${balance} lamports; a table of ${addresses.length} addresses needs ${need}` };
      }
      for (const tx of creation.transactions) {
        const signature = await rpc.call<string>('sendTransaction', [Buffer.from(tx.serialize()).toString('base64'), { encoding: 'base64', preflightCommitment: 'confirmed' }]);
        await this.confirmed(signature);
      }
      const table = await this.usable(creation.address);
      this.held.set(table.address, table);
      this.created++;
      this.deps.log?.('info', 'lookup table created', { table: table.address, addresses: table.addresses.length, transactions: creation.transactions.length });
      return { ok: true, table };
    } catch (e) {
      return { ok: false, reason: 'failed', message: e instanceof Error ? e.message : String(e) };
    }
  }

  /** A confirmed slot newer than the last creation's (each table needs its own derivation slot). */
  private async freshSlot(): Promise<bigint> {
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      const slot = BigInt(await this.deps.rpc.call<number>('getSlot', [{ commitment: 'confirmed' }]));
      if (slot > this.lastRecentSlot) {
        this.lastRecentSlot = slot;
        return slot;
      }
      if (Date.now() > deadline) throw new Error('no new slot for the table address');
      await sleep(this.pollMs);
    }
  }

  private async confirmed(signature: string): Promise<void> {
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      const r = await this.deps.rpc.call<{ value: ({ err: unknown; confirmationStatus?: string } | null)[] }>('getSignatureStatuses', [[signature]]);
      const s = r.value[0];
      if (s?.err) throw new Error(`lookup table transaction ${signature} failed: ${JSON.stringify(s.err)}`);
      if (s && (s.confirmationStatus === 'confirmed' || s.confirmationStatus === 'finalized')) return;
      if (Date.now() > deadline) throw new Error(`lookup table transaction ${signature} not confirmed in ${this.waitMs} ms`);
      await sleep(this.pollMs);
    }
  }

  /** The table as confirmed, once the confirmed slot is past its last extension. */
  private async usable(address: string): Promise<LookupTableRef> {
    const r = await this.deps.rpc.call<{ value: { data: [string, string] } | null }>('getAccountInfo', [address, { encoding: 'base64', commitment: 'confirmed' }]);
    const t = r.value ? decodeLookupTableAccount(Buffer.from(r.value.data[0], 'base64')) : null;
    if (!t) throw new Error(`lookup table ${address} not found after its creation`);
    const deadline = Date.now() + this.waitMs;
    while (BigInt(await this.deps.rpc.call<number>('getSlot', [{ commitment: 'confirmed' }])) <= t.lastExtendedSlot) {
      if (Date.now() > deadline) throw new Error(`lookup table ${address} not usable in ${this.waitMs} ms`);
      await sleep(this.pollMs);
    }
    return { address, addresses: t.addresses };
  }
}
