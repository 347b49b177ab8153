/**
 * The price history over a real embedded store (PGlite on a temporary directory): bars per minute from samples,
 * each finished minute written once, `change24h` against the stored close 24 h before, candles by interval, and a
 * second instance on the same store (a restart) giving the same `change24h`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PriceEntry, PriceObject } from '../router/price-types.js';
import { openStore } from '../store/open.js';
import { tempDir } from '../store/testing/temp-dir.js';
import { PriceHistory } from './price-history.js';
import type { ResolvedToken } from './price-service-types.js';

const MIN = 60_000;
const DAY = 86_400_000;
const SOL: ResolvedToken = { token: 'SOL', mint: 'So11111111111111111111111111111111111111112', tracked: true, indexed: true };
const ASKED: ResolvedToken = { token: 'X', mint: 'FrnsiaHaDfWsonmBkApwudxNmuYY5PuYnmZNhSqjifqD', tracked: false, indexed: true };

function priceObj(t: ResolvedToken, priceUsd: number, age = 10): PriceObject {
  return { token: t.token, mint: t.mint, priceUsd, bestBid: priceUsd, bestAsk: priceUsd, bestBidPool: '', bestAskPool: '', bestBidDex: '', bestAskDex: '', bestBidFeeBps: 0, bestAskFeeBps: 0, poolCacheAgeMs: age, confidence: 'confirmed', poolCount: 1, timestamp: 0, route: 'direct' };
}

/** Runs one sample round to its end (the round works in event-loop slices). */
async function round(h: PriceHistory): Promise<void> {
  h.tick();
  await new Promise((r) => setImmediate(r));
  await h.flush();
}

test('samples make one-minute bars, flushed once their minute is over; change24h and candles read them', async () => {
  const dir = tempDir('price-history');
  const store = await openStore({ dataDir: dir.path });
  try {
    let now = 1_800_000_000_000 - (1_800_000_000_000 % MIN);
    const price = new Map<string, number>([[SOL.mint, 100], [ASKED.mint, 2]]);
    const make = (): PriceHistory =>
      new PriceHistory({
        repo: store.prices,
        prices: { trackedTokens: () => [SOL], ready: () => true },
        rawPrice: (t) => priceObj(t, price.get(t.mint)!),
        now: () => now,
        sampleMs: 3_600_000,
      });
    const h = make();
    await h.start();
    h.noteAsked(ASKED);
    // Minute 0: three samples (100, 104, 97); minute 1: one sample (101).
    for (const p of [100, 104, 97]) {
      price.set(SOL.mint, p);
      await round(h);
      now += 10_000;
    }
    assert.deepEqual((await store.prices.since(0)).length, 0, 'the open minute is not written yet');
    now += 40_000;
    price.set(SOL.mint, 101);
    await round(h);
    const bars = await store.prices.since(0);
    const sol = bars.filter((b) => b.mint === SOL.mint);
    assert.deepEqual(sol.map((b) => [b.open, b.high, b.low, b.close, b.samples]), [[100, 104, 97, 97, 3]]);
    assert.equal(bars.filter((b) => b.mint === ASKED.mint).length, 1, 'the asked mint is sampled too');

    // 24 h later: change24h against the close of the minute 24 h before (97 at minute 0, 101 at minute 1).
    const t0 = sol[0]!.minuteMs;
    now = t0 + DAY + 30_000;
    assert.equal(h.change24h(SOL.mint, 194.0, now), 100);
    now = t0 + MIN + DAY + 5_000;
    assert.ok(Math.abs(h.change24h(SOL.mint, 50.5, now)! - -50) < 1e-9);
    // More than 1 h past the last point: nothing 24 h old is close enough.
    assert.equal(h.change24h(SOL.mint, 1, t0 + 2 * MIN + DAY + 3_600_000), undefined);
    const decorated = h.decorate(priceObj(SOL, 194), t0 + DAY + 30_000) as PriceObject;
    assert.equal(decorated.change24h, 100);
    const unavailable: PriceEntry = { token: 'SOL', status: 'unavailable', reason: 'x' };
    assert.equal(h.decorate(unavailable), unavailable);

    // Candles: 1m gives both minutes (the second from memory until flushed); 1h merges them.
    now = t0 + 2 * MIN + 1;
    const oneMin = await h.candles(SOL.mint, '1m', t0, t0 + 5 * MIN);
    assert.deepEqual(oneMin.map((c) => [c.t, c.open, c.high, c.low, c.close]), [[t0, 100, 104, 97, 97], [t0 + MIN, 101, 101, 101, 101]]);
    const hour = await h.candles(SOL.mint, '1h', t0 - (t0 % 3_600_000), t0 + 5 * MIN);
    assert.deepEqual(hour.map((c) => [c.open, c.high, c.low, c.close]), [[100, 104, 97, 101]]);

    // A restart: the open minute is written at stop, and a new instance on the same store gives the same change.
    await h.stop();
    const again = make();
    await again.start();
    now = t0 + MIN + DAY + 5_000;
    assert.ok(Math.abs(again.change24h(SOL.mint, 50.5, now)! - -50) < 1e-9);
    assert.deepEqual((await store.prices.since(0)).filter((b) => b.mint === SOL.mint).map((b) => b.close), [97, 101]);
    await again.stop();
  } finally {
    await store.close();
    dir.remove();
  }
});

test('stale prices are not sampled; asked mints beyond the cap leave, least recently asked first', async () => {
  const dir = tempDir('price-history-cap');
  const store = await openStore({ dataDir: dir.path });
  try {
    const now = 1_800_000_000_000;
    const others = Array.from({ length: 5 }, (_v, i) => ({ ...ASKED, token: `T${i}`, mint: `${ASKED.mint.slice(0, -1)}${i}` }));
    const h = new PriceHistory({
      repo: store.prices,
      prices: { trackedTokens: () => [SOL], ready: () => true },
      // SOL's price is stale (-1): never sampled.
      rawPrice: (t) => priceObj(t, 3, t.mint === SOL.mint ? -1 : 10),
      now: () => now,
      maxMints: 3,
    });
    for (const t of others) h.noteAsked(t);
    h.noteAsked(others[2]!);
    assert.deepEqual(h.sampledMints().map((t) => t.token), ['SOL', 'T4', 'T2']);
    h.tick();
    await new Promise((r) => setImmediate(r));
    await h.stop();
    const bars = await store.prices.since(0);
    assert.deepEqual(bars.map((b) => b.mint).sort(), [others[2]!.mint, others[4]!.mint].sort());
  } finally {
    await store.close();
    dir.remove();
  }
});
