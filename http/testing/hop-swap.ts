/**
 * Test support: the swap instruction of one quoted hop, built by that hop's DEX adapter (`swapInstruction`,
 * through the registry) from the pool's accounts as the chain holds them now, read over JSON-RPC the way ingest
 * describes a pool (descriptor inputs, token accounts the pool owns, mint decimals). Exact-in with the route's
 * numbers: amount = what the leg is given (the quote's `amount` for the first leg, the previous leg's `outAmount`
 * after it), minimum out = the hop's `outAmount`, so the program refuses the swap unless it pays at least what the
 * quote said (the caller checks it paid exactly that). The program charges the hop's `inAmount`: the amount given, or less where the program takes
 * only what the output costs (a PumpSwap `buy_exact_quote_in`; the router's README, "Exact confirmation").
 */
import { PublicKey, TransactionInstruction, type AccountInfo } from '@solana/web3.js';
import { decodeMint, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '../../engine/adapters/common/spl-layouts.js';
import { adapterByDex } from '../../engine/adapters/registry.js';
import type { DescriptorInput, DexAdapter, PoolDescriptor } from '../../engine/adapters/types.js';
import { WSOL_MINT } from '../../engine/catalog/tokens.js';
import type { DexId } from '../../engine/dex-ids.js';
import type { TestWallet } from './test-wallet.js';

/** The fields of one hop of a `/v1/quote` route this builder reads. */
export interface QuotedHop {
  readonly dex: string;
  readonly poolAddress: string;
  readonly inputMint: string;
  readonly outputMint: string;
  readonly inAmount: string;
  readonly outAmount: string;
}

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

async function accountsOf(wallet: TestWallet, keys: readonly string[]): Promise<(AccountInfo<Buffer> | null)[]> {
  if (keys.length === 0) return [];
  return wallet.conn.getMultipleAccountsInfo(keys.map((k) => new PublicKey(k)), 'processed');
}

/** What `decodePool` needs besides the pool account: its descriptor inputs, or the token accounts it owns. */
async function descriptorInputs(wallet: TestWallet, adapter: DexAdapter, address: string, data: Uint8Array): Promise<Map<string, DescriptorInput>> {
  const inputs = new Map<string, DescriptorInput>();
  const keys = adapter.descriptorInputs?.(data) ?? [];
  (await accountsOf(wallet, keys)).forEach((a, i) => {
    if (a) inputs.set(keys[i]!, { owner: a.owner.toBase58(), data: a.data });
  });
  if (adapter.describedByOwnedTokenAccounts) {
    for (const program of [TOKEN_PROGRAM_ID, TOKEN_2022_PROGRAM_ID]) {
      const owned = await wallet.conn.getTokenAccountsByOwner(new PublicKey(address), { programId: new PublicKey(program) }, 'processed');
      for (const { pubkey, account } of owned.value) inputs.set(pubkey.toBase58(), { owner: program, data: account.data });
    }
  }
  return inputs;
}

/**
 * The swap of `hop` for `wallet`, exact-in: `given` (default the hop's `inAmount`) offered from the wallet's
 * associated token account of the input mint, at least `hop.outAmount` into that of the output mint (both must
 * exist to land). Why `given`: a leg that charges less than it is offered reproduces its quote only when offered the
 * same amount; offered its own `inAmount` it may buy less. Throws when the hop's DEX has no adapter, the pool is not
 * the adapter program's, or the pool's mints are not the hop's.
 */
export async function hopSwap(wallet: TestWallet, hop: QuotedHop, given: bigint = BigInt(hop.inAmount)): Promise<HopSwap> {
  const adapter = adapterByDex(hop.dex as DexId);
  if (!adapter) throw new Error(`no adapter for DEX ${hop.dex}`);
  const [poolInfo, mintIn, mintOut] = await accountsOf(wallet, [hop.poolAddress, hop.inputMint, hop.outputMint]);
  if (!poolInfo || poolInfo.owner.toBase58() !== adapter.programId) throw new Error(`${hop.poolAddress} is not a ${hop.dex} account`);
  if (!mintIn || !mintOut) throw new Error(`mints of ${hop.poolAddress} not found`);
  const mints = new Map([
    [hop.inputMint, mintIn],
    [hop.outputMint, mintOut],
  ]);
  const decimals = (mint: string): number | undefined => {
    const m = mints.get(mint);
    return m ? decodeMint(m.data).decimals : undefined;
  };
  const inputs = await descriptorInputs(wallet, adapter, hop.poolAddress, poolInfo.data);
  const pool = adapter.decodePool(hop.poolAddress, poolInfo.data, decimals, inputs);
  if (!pool) throw new Error(`${hop.poolAddress} does not decode as a ${hop.dex} pool`);
  const aToB = pool.mintA === hop.inputMint;
  const [from, to] = aToB ? [pool.mintA, pool.mintB] : [pool.mintB, pool.mintA];
  if (from !== hop.inputMint || to !== hop.outputMint) {
    throw new Error(`pool ${hop.poolAddress} holds ${pool.mintA}/${pool.mintB}, the hop trades ${hop.inputMint} -> ${hop.outputMint}`);
  }
  // The pool, its dependencies and the mints: every account any adapter's builder may read (configs, token programs).
  const accounts = new Map<string, Uint8Array>([[hop.poolAddress, poolInfo.data]]);
  (await accountsOf(wallet, pool.dependencies)).forEach((a, i) => {
    if (a) accounts.set(pool.dependencies[i]!, a.data);
  });
  for (const [mint, info] of mints) if (!accounts.has(mint)) accounts.set(mint, info.data);
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
