/**
 * Test support: bestBid / bestAsk of a token computed independently of the engine, from the raw CPMM accounts
 * read over JSON-RPC with @solana/web3.js and decoded and priced with the official Raydium SDK (devDependency).
 */
import BN from 'bn.js';
import { createRequire } from 'node:module';
import { Connection, PublicKey } from '@solana/web3.js';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const sdk = require('@raydium-io/raydium-sdk-v2') as any;

const CPMM = new PublicKey('CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C');

/** One pool as the SDK sees it: marginal sell and buy rates of token A in token B, in UI units. */
export interface OraclePool {
  readonly address: string;
  readonly mintA: string;
  readonly mintB: string;
  /** B received per A sold (UI), infinitesimal size, after fees. */
  readonly bidAinB: number;
  /** B paid per A bought (UI), infinitesimal size, after fees. */
  readonly askAinB: number;
}

/** Scales reserves up so that a 1e-9 fraction of the input reserve still gives a precise output. */
const SCALE = 10n ** 12n;

function sdkRate(rin: bigint, rout: bigint, cfg: Record<string, BN>, creatorRate: BN, onInput: boolean): number {
  const inR = rin * SCALE;
  const outR = rout * SCALE;
  const amount = inR / 10n ** 9n;
  const r = sdk.CurveCalculator.swapBaseInput(
    new BN(amount.toString()),
    new BN(inR.toString()),
    new BN(outR.toString()),
    cfg.tradeFeeRate,
    creatorRate,
    cfg.protocolFeeRate,
    cfg.fundFeeRate,
    onInput,
  );
  return Number(BigInt(r.outputAmount.toString())) / Number(amount);
}

/** Every tradable CPMM pool of the cluster, priced with the SDK at confirmed commitment. */
export async function oraclePools(rpcUrl: string): Promise<OraclePool[]> {
  const conn = new Connection(rpcUrl, 'confirmed');
  const accounts = await conn.getProgramAccounts(CPMM, { filters: [{ dataSize: 637 }], commitment: 'confirmed' });
  const decoded = accounts.map((a) => ({ address: a.pubkey.toBase58(), p: sdk.CpmmPoolInfoLayout.decode(a.account.data) }));
  const keys = [...new Set(decoded.flatMap((d) => [d.p.configId.toBase58(), d.p.vaultA.toBase58(), d.p.vaultB.toBase58()]))];
  const byKey = new Map<string, Buffer>();
  // Solana caps getMultipleAccounts at 100 keys per call.
  for (let i = 0; i < keys.length; i += 100) {
    const chunk = keys.slice(i, i + 100);
    const infos = await conn.getMultipleAccountsInfo(chunk.map((k) => new PublicKey(k)), 'confirmed');
    chunk.forEach((k, j) => byKey.set(k, infos[j]!.data));
  }
  const out: OraclePool[] = [];
  for (const { address, p } of decoded) {
    if ((p.status & 4) !== 0) continue;
    const cfg = sdk.CpmmConfigInfoLayout.decode(byKey.get(p.configId.toBase58())) as Record<string, BN>;
    const vaultA = byKey.get(p.vaultA.toBase58())!.readBigUInt64LE(64);
    const vaultB = byKey.get(p.vaultB.toBase58())!.readBigUInt64LE(64);
    const big = (x: BN): bigint => BigInt(x.toString());
    const resA = vaultA - big(p.protocolFeesMintA) - big(p.fundFeesMintA) - big(p.creatorFeesMintA);
    const resB = vaultB - big(p.protocolFeesMintB) - big(p.fundFeesMintB) - big(p.creatorFeesMintB);
    const creatorRate = p.enableCreatorFee ? cfg.creatorFeeRate! : new BN(0);
    const onInput = (zeroForOne: boolean): boolean => p.feeOn === 0 || (p.feeOn === 1 && zeroForOne) || (p.feeOn === 2 && !zeroForOne);
    const scale = 10 ** (p.mintDecimalA - p.mintDecimalB);
    const sellA = sdkRate(resA, resB, cfg, creatorRate, onInput(true));
    const buyA = sdkRate(resB, resA, cfg, creatorRate, onInput(false));
    out.push({ address, mintA: p.mintA.toBase58(), mintB: p.mintB.toBase58(), bidAinB: sellA * scale, askAinB: scale / buyA });
  }
  return out;
}

/** Best bid and ask of `base` in `quote` over the oracle pools (UI units), with the pools that give them. */
export function bestOf(pools: readonly OraclePool[], base: string, quotes: readonly string[]): { bid: number; ask: number; bidPool: string; askPool: string } | null {
  let best: { bid: number; ask: number; bidPool: string; askPool: string } | null = null;
  for (const p of pools) {
    let bid: number;
    let ask: number;
    if (p.mintA === base && quotes.includes(p.mintB)) {
      bid = p.bidAinB;
      ask = p.askAinB;
    } else if (p.mintB === base && quotes.includes(p.mintA)) {
      bid = 1 / p.askAinB;
      ask = 1 / p.bidAinB;
    } else continue;
    if (!best) best = { bid, ask, bidPool: p.address, askPool: p.address };
    if (bid > best.bid) best = { ...best, bid, bidPool: p.address };
    if (ask < best.ask) best = { ...best, ask, askPool: p.address };
  }
  return best;
}
