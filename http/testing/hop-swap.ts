/**
 * Test support: the swap instruction of one quoted hop, built by that hop's DEX adapter (`swapInstruction`) from the
 * pool's accounts as the chain holds them now, read over JSON-RPC by the build step's own reader
 * (`engine/services/swap-leg-state.ts`: descriptor inputs, token accounts the pool owns, mint decimals). Exact-in with the route's
 * numbers: amount = what the leg is given (the quote's `amount` for the first leg, the previous leg's `outAmount`
 * after it), minimum out = the hop's `outAmount`, so the program refuses the swap unless it pays at least what the
 * quote said (the caller checks it paid exactly that). The program charges the hop's `inAmount`: the amount given, or less where the program takes
 * only what the output costs (a PumpSwap `buy_exact_quote_in`; the router's README, "Exact confirmation").
 */
import { PublicKey, TransactionInstruction } from '@solana/web3.js';
import type { DexAdapter, PoolDescriptor } from '../../engine/adapters/types.js';
import { WSOL_MINT } from '../../engine/catalog/tokens.js';
import { RpcClient } from '../../engine/chain/rpc-client.js';
import { readLegState, type StoredHop } from '../../engine/services/swap-leg-state.js';
import type { TestWallet } from './test-wallet.js';

/** The fields of one hop of a `/v1/quote` route this builder reads (the build step's stored hop). */
export type QuotedHop = StoredHop;

/** A hop's swap, ready for a transaction, with the accounts it names. */
export interface HopSwap {
  readonly instruction: TransactionInstruction;
  readonly adapter: DexAdapter;
  readonly pool: PoolDescriptor;
  /** The wallet's token accounts the hop takes from and pays into. */
  readonly source: string;
  readonly destination: string;
  /** True when the hop's SOL side moves the wallet's own lamports, not its wrapped-SOL account (a pump.fun curve
   * takes and pays native SOL): the instruction does not name that token account. */
  readonly sourceIsNative: boolean;
  readonly destinationIsNative: boolean;
}

/**
 * The swap of `hop` for `wallet`, exact-in: `given` (default the hop's `inAmount`) offered from the wallet's
 * associated token account of the input mint, at least `hop.outAmount` into that of the output mint (both must
 * exist to land). Why `given`: a leg that charges less than it is offered reproduces its quote only when offered the
 * same amount; offered its own `inAmount` it may buy less. The pool is read and checked the way the build step reads
 * it (`engine/services/swap-leg-state.ts`: it throws when the hop's DEX has no adapter, the pool is not the adapter
 * program's, or the pool's mints are not the hop's).
 */
export async function hopSwap(wallet: TestWallet, hop: QuotedHop, given: bigint = BigInt(hop.inAmount)): Promise<HopSwap> {
  const { adapter, pool, accounts, aToB } = await readLegState(new RpcClient(wallet.conn.rpcEndpoint, { retries: 1, timeoutMs: 10_000 }), hop);
  const source = await wallet.tokenAccountOf(hop.inputMint);
  const destination = await wallet.tokenAccountOf(hop.outputMint);
  const built = adapter.swapInstruction({
    pool,
    accounts,
    user: wallet.address,
    userSourceTokenAccount: source,
    userDestinationTokenAccount: destination,
    aToB,
    mode: 'ExactIn',
    amount: given,
    otherAmountThreshold: BigInt(hop.outAmount),
  });
  const instruction = new TransactionInstruction({
    programId: new PublicKey(built.programId),
    keys: built.keys.map((k) => ({ pubkey: new PublicKey(k.pubkey), isSigner: k.isSigner, isWritable: k.isWritable })),
    data: Buffer.from(built.data),
  });
  const named = (account: string): boolean => built.keys.some((k) => k.pubkey === account);
  const native = (mint: string, account: string): boolean => mint === WSOL_MINT && !named(account);
  return { instruction, adapter, pool, source, destination, sourceIsNative: native(hop.inputMint, source), destinationIsNative: native(hop.outputMint, destination) };
}
