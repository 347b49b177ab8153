/**
 * Test support: the pool records the chain's accounts give right now, built by a fresh ingest core from an RPC
 * snapshot (nothing streamed, nothing remembered), and a comparison of a running service's slab against them.
 */
import bs58 from 'bs58';
import { ADAPTERS } from '../../adapters/registry.js';
import { RpcClient } from '../../chain/rpc-client.js';
import { MintTable } from '../../slab/mint-table.js';
import { newExactSnapshot } from '../../slab/pool-snapshot.js';
import { PoolSlab, VIEW_CONFIRMED, VIEW_LATEST } from '../../slab/pool-slab.js';
import { IngestCore } from '../ingest-core.js';
import { SnapshotLoader } from '../snapshot-loader.js';

/** One pool whose record differs from the chain's. */
export interface PoolMismatch {
  readonly address: string;
  readonly view: 'latest' | 'confirmed';
  readonly field: string;
  readonly service: string;
  readonly chain: string;
}

/** Outcome of {@link compareWithChain}. */
export interface ChainComparison {
  /** Pools compared (present in both). */
  readonly compared: number;
  /** Pools the service holds that the chain snapshot does not describe (must be retired: not tradable). */
  readonly absentFromChain: number;
  readonly mismatches: readonly PoolMismatch[];
  /** Slot of the reference snapshot. */
  readonly slot: bigint;
}

/** Reads every pool of every registered adapter from the chain, at a commitment, into a fresh slab. */
export async function chainReference(rpcUrl: string, commitment: 'confirmed' | 'processed' = 'confirmed'): Promise<{ slab: PoolSlab; mints: MintTable; byAddress: Map<string, number>; slot: bigint }> {
  const slab = PoolSlab.create(4096, 262_144);
  const mints = MintTable.create(1024, 1 << 20);
  const core = new IngestCore({
    slab,
    mints,
    adapters: ADAPTERS,
    onChange: () => undefined,
    onMissingAccounts: (a) => a.forEach((x) => loader.missing.add(x)),
    onMissingOwnedTokenAccounts: (o) => o.forEach((x) => loader.missingOwners.add(x)),
  });
  const loader = new SnapshotLoader(new RpcClient(rpcUrl), core, ADAPTERS, commitment);
  const slot = await loader.load(true);
  const byAddress = new Map<string, number>();
  for (const p of core.registry.all()) byAddress.set(p.desc.address, p.index);
  return { slab, mints, byAddress, slot };
}

/**
 * Compares both views of every pool in `service` with the chain's accounts read now at `latestCommitment` (latest
 * view) and confirmed commitment (confirmed view). Call on a quiet chain (no trades landing) once the service has
 * caught up, or differences are in flight, not defects. Ingest applies each transaction's writes as they arrive,
 * so the latest view matches the chain at processed commitment, even with the slot clock stopped.
 */
export async function compareWithChain(service: PoolSlab, rpcUrl: string, latestCommitment: 'confirmed' | 'processed' = 'processed'): Promise<ChainComparison> {
  const ref = await chainReference(rpcUrl, 'confirmed');
  const latestRef = latestCommitment === 'confirmed' ? ref : await chainReference(rpcUrl, 'processed');
  const a = newExactSnapshot();
  const b = newExactSnapshot();
  const mismatches: PoolMismatch[] = [];
  let compared = 0;
  let absentFromChain = 0;
  for (let i = 0; i < service.count(); i++) {
    const address = bs58.encode(service.address(i));
    const j = ref.byAddress.get(address);
    if (j === undefined) {
      absentFromChain++;
      for (const view of [VIEW_LATEST, VIEW_CONFIRMED]) {
        if (service.readExact(i, view, a) && a.status === 0) {
          mismatches.push({ address, view: view === VIEW_LATEST ? 'latest' : 'confirmed', field: 'status', service: '0 (tradable)', chain: 'absent' });
        }
      }
      continue;
    }
    compared++;
    for (const view of [VIEW_LATEST, VIEW_CONFIRMED]) {
      const name = view === VIEW_LATEST ? 'latest' : 'confirmed';
      const haveA = service.readExact(i, view, a);
      const r = view === VIEW_LATEST ? latestRef : ref;
      const k = r.byAddress.get(address);
      const haveB = k !== undefined && r.slab.readExact(k, VIEW_LATEST, b);
      if (!haveA || !haveB) {
        if (haveA !== haveB) mismatches.push({ address, view: name, field: 'written', service: String(haveA), chain: String(haveB) });
        continue;
      }
      const diff = (field: string, x: unknown, y: unknown): void => {
        if (String(x) !== String(y)) mismatches.push({ address, view: name, field, service: String(x), chain: String(y) });
      };
      diff('status', a.status, b.status);
      diff('reserveA', a.reserveA, b.reserveA);
      diff('reserveB', a.reserveB, b.reserveB);
      a.u64.forEach((w, n) => diff(`u64[${n}]`, w, b.u64[n]));
    }
  }
  return { compared, absentFromChain, mismatches, slot: ref.slot };
}
