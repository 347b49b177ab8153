/**
 * Test support: a fresh wallet on the localnet driven the way a client drives a cluster, over JSON-RPC with
 * @solana/web3.js: airdropped SOL, associated token accounts (under each mint's own token program), wrapped SOL,
 * signed transactions sent with preflight and waited for at confirmed commitment, token balances.
 */
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createSyncNativeInstruction,
  getAssociatedTokenAddressSync,
  NATIVE_MINT,
} from '@solana/spl-token';
import { Connection, Keypair, PublicKey, SystemProgram, Transaction, type TransactionInstruction } from '@solana/web3.js';

/** A landed transaction: its signature and the slot it landed in. */
export interface Landed {
  readonly signature: string;
  readonly slot: number;
}

/** Longest wait for a sent transaction to reach confirmed commitment. */
const CONFIRM_TIMEOUT_MS = 10_000;
/** Associated token accounts created per transaction. */
const ATAS_PER_TRANSACTION = 6;

/** A keypair with a connection to the localnet's JSON-RPC. */
export class TestWallet {
  private readonly programs = new Map<string, PublicKey>();

  private constructor(
    readonly conn: Connection,
    readonly keypair: Keypair,
  ) {}

  /** A new keypair holding `lamports` from the localnet's faucet (confirmed before this resolves). */
  static async funded(rpcUrl: string, lamports: number): Promise<TestWallet> {
    const w = new TestWallet(new Connection(rpcUrl, 'confirmed'), Keypair.generate());
    await w.confirmed(await w.conn.requestAirdrop(w.keypair.publicKey, lamports));
    return w;
  }

  /** The wallet's address (base58). */
  get address(): string {
    return this.keypair.publicKey.toBase58();
  }

  /** The token program owning `mint` (Token or Token-2022), read once from the mint account. */
  async tokenProgramOf(mint: string): Promise<PublicKey> {
    let p = this.programs.get(mint);
    if (!p) {
      const info = await this.conn.getAccountInfo(new PublicKey(mint), 'confirmed');
      if (!info) throw new Error(`mint ${mint} not found`);
      p = info.owner;
      this.programs.set(mint, p);
    }
    return p;
  }

  /** The wallet's associated token account of `mint` (base58), whether it exists or not. */
  async tokenAccountOf(mint: string): Promise<string> {
    return getAssociatedTokenAddressSync(new PublicKey(mint), this.keypair.publicKey, false, await this.tokenProgramOf(mint)).toBase58();
  }

  /** Creates the wallet's associated token account of each mint that lacks one (idempotent instructions). */
  async createTokenAccounts(mints: readonly string[]): Promise<void> {
    // Why chunks: each creation names four accounts of its own; more than a few overflow the 1,232-byte packet.
    for (let i = 0; i < mints.length; i += ATAS_PER_TRANSACTION) {
      const ixs: TransactionInstruction[] = [];
      for (const mint of mints.slice(i, i + ATAS_PER_TRANSACTION)) {
        const program = await this.tokenProgramOf(mint);
        const ata = new PublicKey(await this.tokenAccountOf(mint));
        ixs.push(createAssociatedTokenAccountIdempotentInstruction(this.keypair.publicKey, ata, this.keypair.publicKey, new PublicKey(mint), program));
      }
      await this.send(ixs);
    }
  }

  /** Moves `lamports` into the wallet's wrapped-SOL account (created if missing) and syncs its amount. */
  async wrapSol(lamports: bigint): Promise<void> {
    const ata = getAssociatedTokenAddressSync(NATIVE_MINT, this.keypair.publicKey);
    await this.send([
      createAssociatedTokenAccountIdempotentInstruction(this.keypair.publicKey, ata, this.keypair.publicKey, NATIVE_MINT),
      SystemProgram.transfer({ fromPubkey: this.keypair.publicKey, toPubkey: ata, lamports }),
      createSyncNativeInstruction(ata),
    ]);
  }

  /** Token amount of a token account at confirmed commitment; 0 when the account does not exist. */
  async balance(tokenAccount: string): Promise<bigint> {
    const info = await this.conn.getAccountInfo(new PublicKey(tokenAccount), 'confirmed');
    if (!info) return 0n;
    return BigInt((await this.conn.getTokenAccountBalance(new PublicKey(tokenAccount), 'confirmed')).value.amount);
  }

  /** The wallet's own lamports at confirmed commitment. */
  async lamports(): Promise<bigint> {
    return BigInt(await this.conn.getBalance(this.keypair.publicKey, 'confirmed'));
  }

  /** The fee a landed transaction paid, in lamports (its meta). */
  async feeOf(signature: string): Promise<bigint> {
    const tx = await this.conn.getTransaction(signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
    if (!tx?.meta) throw new Error(`transaction ${signature} has no meta`);
    return BigInt(tx.meta.fee);
  }

  /** Signs `ixs` as one transaction (the wallet pays), sends it with preflight and waits until it is confirmed. */
  async send(ixs: readonly TransactionInstruction[]): Promise<Landed> {
    const { blockhash, lastValidBlockHeight } = await this.conn.getLatestBlockhash('confirmed');
    const tx = new Transaction({ feePayer: this.keypair.publicKey, blockhash, lastValidBlockHeight }).add(...ixs);
    tx.sign(this.keypair);
    return this.confirmed(await this.conn.sendRawTransaction(tx.serialize()));
  }

  /** Waits for `signature` to reach confirmed commitment; throws when it failed or is not confirmed in time. */
  async confirmed(signature: string): Promise<Landed> {
    const until = Date.now() + CONFIRM_TIMEOUT_MS;
    for (;;) {
      const s = (await this.conn.getSignatureStatuses([signature], { searchTransactionHistory: true })).value[0];
      if (s?.err) throw new Error(`transaction ${signature} failed: ${JSON.stringify(s.err)}`);
      if (s?.confirmationStatus === 'confirmed' || s?.confirmationStatus === 'finalized') return { signature, slot: s.slot };
      if (Date.now() > until) throw new Error(`transaction ${signature} not confirmed: ${JSON.stringify(s)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
