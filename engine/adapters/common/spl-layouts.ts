/**
 * SPL Token mint (82 B) and token account (165 B) layouts: the fields adapters and the localnet need.
 * Token-2022 accounts share these base layouts; their extensions follow after byte 165 (accounts) or 82 (mints,
 * behind the account-type byte at 165).
 */

/** SPL Token program id. */
export const TOKEN_PROGRAM_ID = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
/** Token-2022 program id. */
export const TOKEN_2022_PROGRAM_ID = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';

/** Size of an SPL mint account. */
export const MINT_SIZE = 82;
/** Size of an SPL token account. */
export const TOKEN_ACCOUNT_SIZE = 165;

/** The decoded fields of a mint account. */
export interface MintFields {
  /** Base58 mint authority, or null when renounced. */
  mintAuthority: Uint8Array | null;
  supply: bigint;
  decimals: number;
  isInitialized: boolean;
  freezeAuthority: Uint8Array | null;
}

/** The decoded fields of a token account. */
export interface TokenAccountFields {
  mint: Uint8Array;
  owner: Uint8Array;
  amount: bigint;
  /** Delegate, or null. */
  delegate: Uint8Array | null;
  /** 0 uninitialized, 1 initialized, 2 frozen. */
  state: number;
  /** Rent-exempt reserve for native (wrapped SOL) accounts, or null. */
  isNative: bigint | null;
  delegatedAmount: bigint;
  closeAuthority: Uint8Array | null;
}

function view(data: Uint8Array): DataView {
  return new DataView(data.buffer, data.byteOffset, data.byteLength);
}

function writeOption(dv: DataView, bytes: Uint8Array, off: number, key: Uint8Array | null): void {
  dv.setUint32(off, key ? 1 : 0, true);
  if (key) bytes.set(key, off + 4);
}

function readOption(data: Uint8Array, off: number): Uint8Array | null {
  return view(data).getUint32(off, true) === 1 ? data.slice(off + 4, off + 36) : null;
}

/** Encodes a mint account (82 bytes). */
export function encodeMint(f: MintFields): Uint8Array {
  const out = new Uint8Array(MINT_SIZE);
  const dv = view(out);
  writeOption(dv, out, 0, f.mintAuthority);
  dv.setBigUint64(36, f.supply, true);
  out[44] = f.decimals;
  out[45] = f.isInitialized ? 1 : 0;
  writeOption(dv, out, 46, f.freezeAuthority);
  return out;
}

/** Decodes a mint account (SPL or the base of a Token-2022 mint). */
export function decodeMint(data: Uint8Array): MintFields {
  if (data.length < MINT_SIZE) throw new RangeError(`mint account too short: ${data.length}`);
  return {
    mintAuthority: readOption(data, 0),
    supply: view(data).getBigUint64(36, true),
    decimals: data[44]!,
    isInitialized: data[45] === 1,
    freezeAuthority: readOption(data, 46),
  };
}

/** Encodes a token account (165 bytes). */
export function encodeTokenAccount(f: TokenAccountFields): Uint8Array {
  const out = new Uint8Array(TOKEN_ACCOUNT_SIZE);
  const dv = view(out);
  out.set(f.mint, 0);
  out.set(f.owner, 32);
  dv.setBigUint64(64, f.amount, true);
  writeOption(dv, out, 72, f.delegate);
  out[108] = f.state;
  dv.setUint32(109, f.isNative === null ? 0 : 1, true);
  dv.setBigUint64(113, f.isNative ?? 0n, true);
  dv.setBigUint64(121, f.delegatedAmount, true);
  writeOption(dv, out, 129, f.closeAuthority);
  return out;
}

/** Decodes a token account (SPL or the base of a Token-2022 account). */
export function decodeTokenAccount(data: Uint8Array): TokenAccountFields {
  if (data.length < TOKEN_ACCOUNT_SIZE) throw new RangeError(`token account too short: ${data.length}`);
  const dv = view(data);
  return {
    mint: data.slice(0, 32),
    owner: data.slice(32, 64),
    amount: dv.getBigUint64(64, true),
    delegate: readOption(data, 72),
    state: data[108]!,
    isNative: dv.getUint32(109, true) === 1 ? dv.getBigUint64(113, true) : null,
    delegatedAmount: dv.getBigUint64(121, true),
    closeAuthority: readOption(data, 129),
  };
}

/** The `amount` of a token account, without decoding the rest (hot path). */
export function tokenAccountAmount(data: Uint8Array): bigint {
  return view(data).getBigUint64(64, true);
}

/** Returns a copy of a token account with a new amount. */
export function withTokenAmount(data: Uint8Array, amount: bigint): Uint8Array {
  // Why not data.slice(): on a Node Buffer slice() is a view, and the caller's account would change in place.
  const out = new Uint8Array(data);
  view(out).setBigUint64(64, amount, true);
  return out;
}
