/**
 * The pools ingest knows: each pool's descriptor, adapter, slab index, and which pools depend on which accounts.
 */
import type { DexAdapter, PoolDescriptor } from '../adapters/types.js';

/** One indexed pool. */
export interface PoolEntry {
  readonly desc: PoolDescriptor;
  readonly adapter: DexAdapter;
  /** Pool index in the slab. */
  readonly index: number;
  /** Slot of the last state written to the latest view (0 before the first). */
  latestSlot: bigint;
  /** The watched accounts one swap writes together (`DexAdapter.swapWrites`), when more than one. */
  readonly swapSet?: readonly string[];
  /**
   * The Subscribe stream that carries all of this pool's accounts (0: the primary), set once by the watch plan
   * (`watch-plan.ts`); undefined until then (the primary).
   */
  stream?: number;
}

/** Pools by address and by dependency. */
export class PoolRegistry {
  private readonly byAddress = new Map<string, PoolEntry>();
  private readonly dependents = new Map<string, PoolEntry[]>();
  private readonly byIndex: PoolEntry[] = [];

  /** Adds a pool and indexes its dependencies. */
  add(entry: PoolEntry): void {
    this.byAddress.set(entry.desc.address, entry);
    this.byIndex[entry.index] = entry;
    for (const dep of entry.desc.dependencies) {
      const list = this.dependents.get(dep);
      if (list) list.push(entry);
      else this.dependents.set(dep, [entry]);
    }
  }

  /** The pool at an address. */
  get(address: string): PoolEntry | undefined {
    return this.byAddress.get(address);
  }

  /** The pool at a slab index. */
  atIndex(index: number): PoolEntry | undefined {
    return this.byIndex[index];
  }

  /** Pools whose state depends on an account. */
  dependentsOf(address: string): readonly PoolEntry[] {
    return this.dependents.get(address) ?? [];
  }

  /** Every dependency account of every pool. */
  dependencyAddresses(): string[] {
    return [...this.dependents.keys()];
  }

  /** Every pool. */
  all(): IterableIterator<PoolEntry> {
    return this.byAddress.values();
  }

  /** Number of pools. */
  get size(): number {
    return this.byAddress.size;
  }
}
