/**
 * Whirlpool program-derived addresses: a pool's tick arrays (`["tick_array", whirlpool, start as decimal text]`)
 * and its Oracle (`["oracle", whirlpool]`). Memoized: a pool asks for the same few arrays on every build.
 */
import { PublicKey } from '@solana/web3.js';
import { WHIRLPOOL_PROGRAM_ID } from './layout.js';

let program: PublicKey | undefined;
const memo = new Map<string, string>();

function derive(seeds: Uint8Array[], key: string): string {
  let v = memo.get(key);
  if (v === undefined) {
    program ??= new PublicKey(WHIRLPOOL_PROGRAM_ID);
    v = PublicKey.findProgramAddressSync(seeds, program)[0].toBase58();
    if (memo.size > 100_000) memo.clear();
    memo.set(key, v);
  }
  return v;
}

/** The tick array PDA of `whirlpool` starting at `startTickIndex`. */
export function tickArrayAddress(whirlpool: string, startTickIndex: number): string {
  return derive([Buffer.from('tick_array'), new PublicKey(whirlpool).toBytes(), Buffer.from(String(startTickIndex))], `t:${whirlpool}:${startTickIndex}`);
}

/** The Oracle PDA of `whirlpool` (it exists for adaptive-fee pools; swap_v2 names it for every pool). */
export function oracleAddress(whirlpool: string): string {
  return derive([Buffer.from('oracle'), new PublicKey(whirlpool).toBytes()], `o:${whirlpool}`);
}
