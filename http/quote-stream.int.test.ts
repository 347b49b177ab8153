/**
 * GET /v1/quote/stream on the real service over the localnet (simulator paused, so nothing trades unless the test
 * swaps): the first frame on connect, an idle stream doing no route work, a swap moving the price into a new
 * frame, every frame stored under its quoteId, the terminal error of a failing initial quote, 400s before the
 * stream, the heartbeat, and only the connect counted against the quota.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { USDC_MINT, WSOL_MINT } from '../engine/catalog/tokens.js';
import { QUOTE_TTL_MS, isQuoteId } from '../engine/quotes/quote-store.js';
import { startServiceUnderTest, TEST_DEMO_KEY, type ServiceUnderTest } from './testing/service-under-test.js';
import { openSse, type SseReader } from './testing/sse-reader.js';
import { eventually } from './testing/wait.js';

const HEARTBEAT_MS = 400;
let sut: ServiceUnderTest;
before(async () => {
  sut = await startServiceUnderTest({ SSE_HEARTBEAT_MS: String(HEARTBEAT_MS) });
});
after(async () => sut?.stop());

interface Frame {
  quoteId: string;
  expiresAt: number;
  contextSlot: number;
  inputMint: string;
  outputMint: string;
  amount: string;
  slippageBps: number;
  bestRoute: { outputAmount: string; poolAddress: string; hops: { poolAddress: string; inputMint: string }[] };
  routes: unknown[];
}

/** SOL -> USDC over the CPMM pools only (the pools whose reserves the localnet's universe lists). */
const CPMM_PAIR = 'inputMint=SOL&outputMint=USDC&amount=1000000000&dexes=raydium-cpmm&onlyDirectRoutes=true';
const NEVER = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';

const open: SseReader[] = [];
async function stream(query: string, key = TEST_DEMO_KEY, heartbeats = false): Promise<SseReader> {
  const s = await openSse(`${sut.base}/v1/quote/stream?${query}`, { 'x-api-key': key }, { heartbeats });
  open.push(s);
  return s;
}
after(() => open.forEach((s) => s.close()));

async function firstFrame(s: SseReader): Promise<Frame> {
  assert.equal(s.status, 200);
  const e = await s.next(5000);
  assert.equal(e.event, 'quote', JSON.stringify(e.data));
  return e.data as Frame;
}

test('the first frame on connect: a quote with its own quoteId, contextSlot and expiresAt 30 s after issue, stored like a POST quote', async () => {
  const t0 = Date.now();
  const s = await stream(`${CPMM_PAIR}&tickHz=5`);
  const t1 = Date.now();
  const q = await firstFrame(s);
  assert.ok(isQuoteId(q.quoteId), q.quoteId);
  assert.ok(q.expiresAt >= t0 + QUOTE_TTL_MS && q.expiresAt <= t1 + QUOTE_TTL_MS, 'expiresAt is issue + 30 s');
  assert.ok(q.contextSlot > 0);
  assert.deepEqual([q.inputMint, q.outputMint, q.amount, q.slippageBps], [WSOL_MINT, USDC_MINT, '1000000000', 100]);
  assert.ok(q.routes.length >= 1);
  const stored = await sut.svc.quoteStore.take(q.quoteId, Date.now());
  assert.equal(stored.status, 'ok');
  const payload = JSON.parse((stored as { quote: { payload: string } }).quote.payload) as { route: { outputAmount: string }; slippageBps: number };
  assert.equal(payload.route.outputAmount, q.bestRoute.outputAmount);
  assert.equal(payload.slippageBps, 100);
  s.close();
});

test('an idle stream does no route work: its ticks find nothing written', async () => {
  const s = await stream(`${CPMM_PAIR}&tickHz=5`);
  await firstFrame(s);
  const stats = sut.svc.quoteStreams.stats;
  const before = { ...stats };
  // At least five checks of this stream (5 Hz), with nothing traded on the paused localnet.
  await eventually(() => assert.ok(stats.ticks - before.ticks >= 5, 'five ticks'), 5000);
  assert.equal(stats.recomputes - before.recomputes, 0, 'no route search');
  assert.equal(stats.skipped - before.skipped, stats.ticks - before.ticks, 'every tick skipped');
  assert.ok(await s.quietFor(200), 'and no frame');
  s.close();
});

test('a swap on a pool the route uses moves the price: a new frame with a new quoteId; only the connect is counted', async () => {
  const key = (await sut.svc.keys.create({ tier: 'starter' })).key;
  const connect = await fetch(`${sut.base}/v1/quote/stream?${CPMM_PAIR}&tickHz=5`, { headers: { 'x-api-key': key } });
  const remaining1 = Number(connect.headers.get('x-ratelimit-remaining'));
  const reset1 = connect.headers.get('x-ratelimit-reset');
  await connect.body?.cancel();
  await eventually(async () => assert.ok((await sut.svc.streamSlotsHeld(key)) === 0, 'the first connect gave its slot back'), 5000);

  const s = await stream(`${CPMM_PAIR}&tickHz=5&minMoveBps=1`, key);
  const q1 = await firstFrame(s);
  const poolAddress = q1.bestRoute.hops[0]!.poolAddress;
  const pool = sut.net.universe.pools.find((p) => p.address === poolAddress);
  assert.ok(pool, 'the best route is a CPMM pool of the universe');
  // Buy SOL with 2 % of the pool's USDC: SOL dearer in that pool, so selling SOL there yields more.
  const usdcIsA = pool.mintA === USDC_MINT;
  const out = sut.net.simulator.swapNow(poolAddress, usdcIsA, (usdcIsA ? pool.reserveA : pool.reserveB) / 50n);
  assert.ok(out.slot !== undefined, 'the swap landed');
  const e = await s.next(5000);
  assert.equal(e.event, 'quote');
  const q2 = e.data as Frame;
  assert.ok(BigInt(q2.bestRoute.outputAmount) > BigInt(q1.bestRoute.outputAmount), `${q2.bestRoute.outputAmount} > ${q1.bestRoute.outputAmount}`);
  assert.notEqual(q2.quoteId, q1.quoteId);
  // Why not against the swap's slot: ingest advances the processed slot on the slot stream, which may come after
  // the account writes that triggered the recompute.
  assert.ok(q2.contextSlot >= q1.contextSlot, 'the processed slot never goes back');
  assert.ok(q2.expiresAt > q1.expiresAt);
  assert.equal((await sut.svc.quoteStore.take(q2.quoteId, Date.now())).status, 'ok', 'the new frame is stored too');
  s.close();
  await eventually(async () => assert.ok((await sut.svc.streamSlotsHeld(key)) === 0, 'the stream gave its slot back'), 5000);

  // Ticks and frames cost nothing: the next connect finds exactly one more unit used (or a fresh window).
  const again = await fetch(`${sut.base}/v1/quote/stream?${CPMM_PAIR}`, { headers: { 'x-api-key': key } });
  const remaining2 = Number(again.headers.get('x-ratelimit-remaining'));
  await again.body?.cancel();
  const limit = Number(again.headers.get('x-ratelimit-limit'));
  if (again.headers.get('x-ratelimit-reset') === reset1) assert.equal(remaining2, remaining1 - 2, 'two connects since, nothing else');
  else assert.ok(remaining2 >= limit - 2, 'a fresh window counts at most the connects');
});

test('a failing initial quote (unknown pair): the terminal error event with the mints, then the stream closes', async () => {
  const key = (await sut.svc.keys.create({ tier: 'free' })).key;
  const s = await stream(`inputMint=SOL&outputMint=${NEVER}&amount=1000`, key);
  assert.equal(s.status, 200);
  const e = await s.next(5000);
  assert.equal(e.event, 'error');
  const d = e.data as Record<string, unknown>;
  assert.deepEqual([d.status, d.code, d.inputMint, d.outputMint], [404, 'NO_ROUTE', WSOL_MINT, NEVER]);
  assert.equal(typeof d.error, 'string');
  await assert.rejects(s.next(5000), /stream ended/);
  // The free key's one slot is free again: the next stream opens.
  await eventually(async () => assert.ok((await sut.svc.streamSlotsHeld(key)) === 0, 'slot released'), 5000);
  const next = await stream(`${CPMM_PAIR}`, key);
  await firstFrame(next);
  next.close();
});

test('bad parameters are a plain 400 before any stream: tickHz, amount, minMoveBps', async () => {
  for (const q of [`${CPMM_PAIR}&tickHz=fast`, 'inputMint=SOL&outputMint=USDC&amount=-5', 'inputMint=SOL&outputMint=USDC', `${CPMM_PAIR}&minMoveBps=-1`]) {
    const res = await fetch(`${sut.base}/v1/quote/stream?${q}`, { headers: { 'x-api-key': TEST_DEMO_KEY } });
    assert.equal(res.status, 400, q);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.equal(((await res.json()) as { code: string }).code, 'INVALID_REQUEST');
  }
  // A tickHz out of range is clamped, not refused.
  const s = await stream(`${CPMM_PAIR}&tickHz=50`);
  await firstFrame(s);
  s.close();
  assert.equal((await fetch(`${sut.base}/v1/quote/stream?${CPMM_PAIR}`)).status, 401);
});

test('the heartbeat keeps an idle quote stream alive', async () => {
  const s = await stream(CPMM_PAIR, TEST_DEMO_KEY, true);
  const first = await s.next(5000);
  // The quote is written with the stream's headers: nothing comes before it.
  assert.equal(first.event, 'quote');
  const e = await s.next(HEARTBEAT_MS * 10);
  assert.equal(e.event, 'heartbeat');
  assert.equal(typeof (e.data as { ts: number }).ts, 'number');
  s.close();
});
