/**
 * The quote engine's acceptance test: on the localnet with the simulator paused, routes answered by `POST /v1/quote`
 * are executed as real signed swap transactions, one per leg, built with each hop's adapter (`swapInstruction`,
 * `testing/hop-swap.ts`) and sent over JSON-RPC by a fresh wallet: each leg is offered what the route gives it and
 * asks for at least the hop's quoted `outAmount`, and every leg moves exactly the hop's `inAmount` out of the wallet
 * and exactly its `outAmount` in; the wallet ends with exactly the quote's `outAmount`. (a) a direct route, (b) a
 * 2-hop route leg by leg, (c) a 2-hop route with both legs in one transaction, (d) a route through each of the
 * other five DEXes.
 *
 * Nothing else trades (simulator at 0 swaps per second); before each quote the service's pool records must equal
 * the chain's accounts (a fresh RPC snapshot), so a quote is never answered from a state the previous swaps left in
 * flight, and the transactions execute on exactly the state the quote was computed on. */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PublicKey } from '@solana/web3.js';
import { USDC_MINT, WSOL_MINT } from '../engine/catalog/tokens.js';
import { compareWithChain } from '../engine/ingest/testing/chain-reference.js';
import { hopSwap, type HopSwap, type QuotedHop } from './testing/hop-swap.js';
import { startServiceUnderTest, TEST_DEMO_KEY, type ServiceUnderTest } from './testing/service-under-test.js';
import { TestWallet } from './testing/test-wallet.js';
import { eventually } from './testing/wait.js';

const LAMPORTS_PER_SOL = 1_000_000_000;
/** SOL the wallet trades from (wrapped at setup). */
const WRAPPED = 10n * BigInt(LAMPORTS_PER_SOL);
/** Each quote sells 1 SOL. */
const AMOUNT = 1_000_000_000n;
/** A token whose only pool is against USDC (no pool pairs it with SOL): SOL -> USDC -> ORCA. */
const TWO_HOP_SYMBOL = 'ORCA';
/**
 * A token of each other DEX's pools and the DEXes of the best route into it from SOL (direct, or through a CPMM
 * SOL/USDC pool): every adapter's swap instruction executes a quote. Left out: DBC's fee-scheduler launch (DBCFEE:
 * its fee moves with the clock between the quote and the landing, so no quote of it is exact by nature) and its
 * USDC launch (DBCUSD: activated at a fixed timestamp, 2027-01-14, in universe/meteora-dbc.ts, so not tradable
 * before then: NO_ROUTE).
 */
const EVERY_DEX: readonly (readonly [symbol: string, dexes: readonly string[]])[] = [
  ['QUATRO', ['raydium-amm-v4']],
  ['VIERA', ['raydium-cpmm', 'raydium-amm-v4']],
  ['LLMID', ['raydium-launchlab']],
  ['LLUSD', ['raydium-cpmm', 'raydium-launchlab']],
  ['DBCMID', ['meteora-dbc']],
  ['GUNKONZ', ['pumpswap']],
  ['DOGFROCAT', ['raydium-cpmm', 'pumpswap']],
  // A Token-2022 mint, bought with native SOL (the curve takes lamports, not wrapped SOL).
  ['PMID', ['pumpfun']],
];
/** What each route of EVERY_DEX sells, in lamports; the launch curves are thin, so its impact bound is wide. */
const EVERY_DEX_AMOUNT = 100_000_000n;
const EVERY_DEX_SLIPPAGE_BPS = 500;

/** The fields of the quote answer this test reads. */
interface QuoteBody {
  readonly bestRoute: { readonly poolAddress: string; readonly outputAmount: string; readonly hops: readonly QuotedHop[] };
  readonly amount: string;
  readonly outAmount: string;
}

let sut: ServiceUnderTest;
let wallet: TestWallet;
let twoHopMint: string;
const mintOf = (symbol: string): string => sut.net.universe.tokens.find((t) => t.symbol === symbol)!.mint;

before(async () => {
  sut = await startServiceUnderTest();
  assert.equal(sut.net.simulator.tps, 0, 'the simulator is paused: nothing but this test trades');
  twoHopMint = mintOf(TWO_HOP_SYMBOL);
  wallet = await TestWallet.funded(sut.net.rpcUrl, 100 * LAMPORTS_PER_SOL);
  await wallet.wrapSol(WRAPPED);
  await wallet.createTokenAccounts([USDC_MINT, twoHopMint, ...EVERY_DEX.map(([symbol]) => mintOf(symbol))]);
});
after(async () => sut?.stop());

/** Waits until every pool record of the service (latest and confirmed views) equals the chain's accounts. */
async function serviceAtChain(): Promise<void> {
  await eventually(async () => {
    const c = await compareWithChain(sut.svc.slab, sut.net.rpcUrl);
    assert.ok(c.compared > 50, `compared ${c.compared} pools`);
    assert.deepEqual(c.mismatches.slice(0, 3), [], `${c.mismatches.length} record fields differ from the chain`);
  }, 10_000, 100);
}

/** `POST /v1/quote` once the service holds the chain's state. */
async function quote(body: Record<string, unknown>): Promise<QuoteBody> {
  await serviceAtChain();
  const res = await fetch(`${sut.base}/v1/quote`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': TEST_DEMO_KEY },
    body: JSON.stringify(body),
  });
  const q = (await res.json()) as QuoteBody;
  assert.equal(res.status, 200, JSON.stringify(q));
  assert.equal(q.bestRoute.poolAddress, q.bestRoute.hops[0]!.poolAddress);
  assert.equal(q.outAmount, q.bestRoute.outputAmount);
  return q;
}

/** Data of the pool and of every account its state depends on (vaults among them), at confirmed commitment. */
async function poolAccounts(h: HopSwap): Promise<string[]> {
  const keys = [h.pool.address, ...h.pool.dependencies].map((k) => new PublicKey(k));
  return (await wallet.conn.getMultipleAccountsInfo(keys, 'confirmed')).map((a) => (a ? Buffer.from(a.data).toString('hex') : ''));
}

/** Where a hop's input leaves and its output arrives: a token account, or the wallet's lamports ('native'). */
const NATIVE = 'native';
const sourceOf = (s: HopSwap): string => (s.sourceIsNative ? NATIVE : s.source);
const destinationOf = (s: HopSwap): string => (s.destinationIsNative ? NATIVE : s.destination);

/** Balances of every place the hops move tokens: their token accounts and, for native SOL legs, the lamports. */
async function balances(swaps: readonly HopSwap[]): Promise<Map<string, bigint>> {
  const m = new Map<string, bigint>();
  for (const s of swaps) {
    for (const a of [sourceOf(s), destinationOf(s)]) m.set(a, a === NATIVE ? await wallet.lamports() : await wallet.balance(a));
  }
  return m;
}

/**
 * Sends the route's legs (one transaction per group of hop indexes) and checks each group's movement: each hop's
 * source paid exactly the hop's `inAmount` and its destination received exactly its `outAmount` (summed over the
 * group's hops, the transaction fee added back on the lamports), and each hop's pool accounts changed. Returns
 * what the wallet holds more of the route's output than before the first leg.
 */
async function execute(q: QuoteBody, groups: readonly (readonly number[])[]): Promise<bigint> {
  const hops = q.bestRoute.hops;
  // Each leg is offered what the route gives it: the amount asked, then the previous leg's output.
  const swaps = await Promise.all(hops.map((h, i) => hopSwap(wallet, h, BigInt(i === 0 ? q.amount : hops[i - 1]!.outAmount))));
  hops.forEach((h, i) => assert.ok(swaps[i]!.instruction.keys.some((k) => k.pubkey.toBase58() === h.poolAddress), `hop ${i} names its pool`));
  const last = destinationOf(swaps.at(-1)!);
  assert.notEqual(last, NATIVE, 'the routes of this test end in a token account');
  const first = await balances(swaps);
  for (const group of groups) {
    const before = await balances(swaps);
    const pools = await Promise.all(group.map((i) => poolAccounts(swaps[i]!)));
    const landed = await wallet.send(group.map((i) => swaps[i]!.instruction));
    const after = await balances(swaps);
    const expected = new Map<string, bigint>();
    const add = (k: string, d: bigint): void => void expected.set(k, (expected.get(k) ?? 0n) + d);
    for (const i of group) {
      add(sourceOf(swaps[i]!), -BigInt(hops[i]!.inAmount));
      add(destinationOf(swaps[i]!), BigInt(hops[i]!.outAmount));
    }
    // The wallet pays the transaction's fee in lamports whether or not a leg moves them.
    if (after.has(NATIVE)) add(NATIVE, -(await wallet.feeOf(landed.signature)));
    for (const [k, delta] of expected) {
      assert.equal(after.get(k)! - before.get(k)!, delta, `${k} moved by the quoted amounts (${landed.signature})`);
    }
    for (const [n, i] of group.entries()) {
      assert.notDeepEqual(await poolAccounts(swaps[i]!), pools[n], `hop ${i} traded against its pool ${hops[i]!.poolAddress}`);
    }
  }
  return (await wallet.balance(last)) - first.get(last)!;
}

test('(a) a direct route, executed with the adapter\'s swap instruction: the wallet receives exactly outAmount', async () => {
  const q = await quote({ inputMint: 'SOL', outputMint: 'USDC', amount: AMOUNT.toString(), onlyDirectRoutes: true });
  const hops = q.bestRoute.hops;
  assert.equal(hops.length, 1, 'direct');
  assert.deepEqual([hops[0]!.inputMint, hops[0]!.outputMint, hops[0]!.inAmount], [WSOL_MINT, USDC_MINT, AMOUNT.toString()]);
  const received = await execute(q, [[0]]);
  assert.equal(received, BigInt(q.outAmount));
  assert.ok(received > 0n);
});

test('(b) a 2-hop route, leg by leg as separate transactions: each leg pays its quoted outAmount, in total the quote\'s', async () => {
  const holds = (p: { mintA: string; mintB: string }, m: string): boolean => p.mintA === m || p.mintB === m;
  const pools = [...sut.net.universe.pools, ...sut.net.universe.dexPools].filter((p) => holds(p, twoHopMint));
  assert.ok(pools.length > 0 && !pools.some((p) => holds(p, WSOL_MINT)), `no pool of any DEX pairs SOL with ${TWO_HOP_SYMBOL}`);
  const q = await quote({ inputMint: 'SOL', outputMint: twoHopMint, amount: AMOUNT.toString(), maxHops: 2 });
  const hops = q.bestRoute.hops;
  assert.equal(hops.length, 2, JSON.stringify(q.bestRoute));
  assert.deepEqual([hops[0]!.inputMint, hops[1]!.outputMint, hops[0]!.inAmount], [WSOL_MINT, twoHopMint, AMOUNT.toString()]);
  assert.equal(hops[1]!.inputMint, hops[0]!.outputMint);
  assert.ok(BigInt(hops[1]!.inAmount) <= BigInt(hops[0]!.outAmount), 'the second leg spends at most what the first delivered');
  const received = await execute(q, [[0], [1]]);
  assert.equal(received, BigInt(q.outAmount));
  assert.equal(received, BigInt(hops[1]!.outAmount));
});

test('(c) the same 2-hop route with both legs in one transaction: exactly the quoted outAmount', async () => {
  const q = await quote({ inputMint: 'SOL', outputMint: twoHopMint, amount: AMOUNT.toString(), maxHops: 2 });
  const hops = q.bestRoute.hops;
  assert.equal(hops.length, 2, JSON.stringify(q.bestRoute));
  const received = await execute(q, [[0, 1]]);
  assert.equal(received, BigInt(q.outAmount));
});

test('(d) every DEX adapter\'s swap instruction, leg by leg: exactly the quoted amounts', async (t) => {
  for (const [symbol, dexes] of EVERY_DEX) {
    await t.test(`SOL -> ${symbol} through ${dexes.join(' -> ')}`, async () => {
      const q = await quote({ inputMint: 'SOL', outputMint: mintOf(symbol), amount: EVERY_DEX_AMOUNT.toString(), maxHops: 2, slippageBps: EVERY_DEX_SLIPPAGE_BPS });
      const hops = q.bestRoute.hops;
      assert.deepEqual(hops.map((h) => h.dex), dexes, JSON.stringify(q.bestRoute));
      const received = await execute(q, hops.map((_, i) => [i]));
      assert.equal(received, BigInt(q.outAmount));
    });
  }
});
