/**
 * Turns the accounts of a JSON-RPC answer (base64 data) into pages of {@link RpcAccount}s whose data share one
 * buffer per page, and whose owners are interned: a snapshot of 158,000 pools holds about half a million
 * accounts, and a buffer of its own per account costs a few hundred bytes of allocator and object overhead each.
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

/** An account in Solana's JSON shape (`encoding: base64`). */
export interface RawAccount {
  data: [string, string];
  owner: string;
  lamports: number;
  executable: boolean;
}

/** Distinct owners kept at most (programs; a few dozen in practice). */
const MAX_OWNERS = 4096;

/** Builds pages of accounts; one per answer or per page of a streamed answer. */
export class AccountPageBuilder {
  private addresses: string[] = [];
  private raws: RawAccount[] = [];
  private bytes = 0;
  private readonly owners = new Map<string, string>();

  /** Accounts added since the last {@link take}. */
  get size(): number {
    return this.addresses.length;
  }

  /** Adds an account to the page being built. */
  add(address: string, raw: RawAccount): void {
    const [b64, encoding] = raw.data;
    if (encoding !== 'base64' || typeof b64 !== 'string') throw new EngineError('RPC_BAD_ACCOUNT', `account ${address}: data is not base64`);
    this.addresses.push(address);
    this.raws.push(raw);
    this.bytes += decodedLength(b64);
  }

  /** The page built so far (its data copied into one buffer), and a fresh page begun. */
  take(): RpcAccount[] {
    const arena = Buffer.allocUnsafeSlow(this.bytes);
    const out: RpcAccount[] = new Array(this.raws.length);
    let off = 0;
    for (let i = 0; i < this.raws.length; i++) {
      const raw = this.raws[i]!;
      const len = arena.write(raw.data[0], off, 'base64');
      if (len !== decodedLength(raw.data[0])) throw new EngineError('RPC_BAD_ACCOUNT', `account ${this.addresses[i]}: malformed base64 data`);
      out[i] = {
        address: this.addresses[i]!,
        owner: this.intern(raw.owner),
        lamports: BigInt(raw.lamports),
        data: new Uint8Array(arena.buffer, arena.byteOffset + off, len),
        executable: raw.executable,
      };
      off += len;
    }
    this.addresses = [];
    this.raws = [];
    this.bytes = 0;
    return out;
  }

  /** One string per distinct owner (JSON parsing makes a new one per account). */
  private intern(owner: string): string {
    const known = this.owners.get(owner);
    if (known !== undefined) return known;
    if (this.owners.size >= MAX_OWNERS) this.owners.clear();
    this.owners.set(owner, owner);
    return owner;
  }
}

/** Bytes that a base64 string decodes to. */
function decodedLength(b64: string): number {
  const n = b64.length;
  const pad = n > 0 && b64.charCodeAt(n - 1) === 0x3d ? (n > 1 && b64.charCodeAt(n - 2) === 0x3d ? 2 : 1) : 0;
  return Math.floor((n * 3) / 4) - pad;
}
