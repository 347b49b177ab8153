/**
 * The latest version of every watched account, applied once per (slot, write version).
 */
import { isNewer, type AccountUpdate } from './account-update.js';

/** Latest data of watched accounts. */
export class AccountCache {
  private readonly accounts = new Map<string, AccountUpdate>();
  /** Updates dropped as duplicates or older than what the cache holds. */
  duplicates = 0;

  /** Applies an update if it is newer; returns whether it was applied. */
  apply(u: AccountUpdate): boolean {
    if (!isNewer(u, this.accounts.get(u.address))) {
      this.duplicates++;
      return false;
    }
    this.accounts.set(u.address, u);
    return true;
  }

  /** The latest update of an account. */
  get(address: string): AccountUpdate | undefined {
    return this.accounts.get(address);
  }

  /** The latest data of an account. */
  data(address: string): Uint8Array | undefined {
    return this.accounts.get(address)?.data;
  }

  /** True when the account has been seen. */
  has(address: string): boolean {
    return this.accounts.has(address);
  }

  /** Forgets every account (the chain was replaced: what was held belongs to another history). */
  clear(): void {
    this.accounts.clear();
  }

  /** Number of accounts held. */
  get size(): number {
    return this.accounts.size;
  }
}
