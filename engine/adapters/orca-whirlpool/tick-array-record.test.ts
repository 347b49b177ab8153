/**
 * Tick arrays in the slab's array region: the quote over the slab, read in place through a pool view's directory,
 * equals the quote over the decoded arrays on random states (both directions and modes), validates with
 * dirBegin / dirValid, and a group written during the read makes it fail validation.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ArraySlab } from '../../slab/array-slab.js';
import { computeWhirlpoolSwap } from './swap.js';
import { SlabTickSource, TICK_ARRAY_RECORD_WORDS, WHIRLPOOL_TICK_ARRAY_KIND, writeTickArrayRecord } from './tick-array-record.js';
import { ArrayTickSource, type TickArrayTicks } from './tick-source.js';
import { randomWhirlpoolStates } from './testing/random-states.js';

/** The service's record size (`engine/slab/pool-slab.ts`). */
const SERVICE_DATA_WORDS = 288;
const addr = (n: number): Uint8Array => new Uint8Array(32).fill(n & 0xff);

/** Lists `arrays` as pool `pool`'s view in a fresh directory (ingest's part), one group. */
function ingest(slab: ArraySlab, pool: number, arrays: readonly TickArrayTicks[], slot: bigint): { dir: number; records: number[] } {
  const dir = slab.allocDirectory(pool);
  const records = arrays.map((a, i) => slab.alloc(pool, WHIRLPOOL_TICK_ARRAY_KIND, addr(i), a.startTickIndex));
  slab.beginGroup(dir);
  arrays.forEach((a, i) => writeTickArrayRecord(slab, records[i]!, a, slot));
  slab.list(records);
  slab.endGroup(slot);
  return { dir, records };
}

test('a tick array fits the service records; the writer refuses what it cannot store', () => {
  assert.ok(TICK_ARRAY_RECORD_WORDS <= SERVICE_DATA_WORDS);
  const small = ArraySlab.create(64, 1, 4);
  const r = small.alloc(0, WHIRLPOOL_TICK_ARRAY_KIND, addr(1), 0);
  const ticks: TickArrayTicks = { startTickIndex: 0, bitmap: new Uint32Array(3), liquidityNet: new Array<bigint>(88).fill(0n) };
  assert.throws(() => writeTickArrayRecord(small, r, ticks, 1n), /hold 64 words/);
  const slab = ArraySlab.create(SERVICE_DATA_WORDS, 1, 4);
  const r2 = slab.alloc(0, WHIRLPOOL_TICK_ARRAY_KIND, addr(1), 88);
  assert.throws(() => writeTickArrayRecord(slab, r2, ticks, 1n), /holds the array at 88/);
  assert.throws(() => writeTickArrayRecord(slab, r2, { ...ticks, startTickIndex: 88, bitmap: Uint32Array.of(0, 0, 1 << 24) }, 1n), /above tick 87/);
  assert.equal(slab.recordBegin(r2) & 1, 0, 'no refused write left the record odd');
});

test('quotes over the slab in place equal quotes over the decoded arrays, and validate', () => {
  const states = randomWhirlpoolStates(7_000, 400);
  const slab = ArraySlab.create(SERVICE_DATA_WORDS, 16, 4096);
  let compared = 0;
  let ok = 0;
  states.forEach((st, n) => {
    const held = st.arrays.filter((a) => st.held.includes(a.startTickIndex));
    const { dir } = ingest(slab, n, held, BigInt(n + 1));
    const decoded = new ArrayTickSource(st.pool.tickSpacing, held);
    const inPlace = new SlabTickSource(slab, dir, st.pool.tickSpacing);
    for (const aToB of [true, false]) {
      for (const exactIn of [true, false]) {
        const amount = st.amounts[(aToB ? 0 : 2) + (exactIn ? 0 : 1)]!;
        const a = computeWhirlpoolSwap(st.pool, decoded, aToB, amount, exactIn, st.timestamp);
        assert.equal(inPlace.begin(), true);
        const b = computeWhirlpoolSwap(st.pool, inPlace, aToB, amount, exactIn, st.timestamp);
        assert.equal(inPlace.valid(), true);
        assert.deepEqual(b, a, `state ${n} aToB=${aToB} exactIn=${exactIn}`);
        compared++;
        if (a.status === 'OK' && a.ticksCrossed > 0) ok++;
      }
    }
  });
  assert.equal(compared, 1600);
  assert.ok(ok > 50, `only ${ok} compared quotes crossed ticks`);
});

test('a group written during the read fails validation; the next read sees the new arrays', () => {
  const st = randomWhirlpoolStates(7_001, 200).find((s) => s.held.length === s.arrays.length && s.pool.adaptiveFee === null
    && computeWhirlpoolSwap(s.pool, new ArrayTickSource(s.pool.tickSpacing, s.arrays), true, s.amounts[0]!, true, s.timestamp).ticksCrossed > 0)!;
  assert.ok(st, 'a state whose A -> B quote crosses a tick');
  const slab = ArraySlab.create(SERVICE_DATA_WORDS, 8, 64);
  const { dir, records } = ingest(slab, 3, st.arrays, 10n);
  const src = new SlabTickSource(slab, dir, st.pool.tickSpacing);
  assert.equal(src.begin(), true);
  const before = computeWhirlpoolSwap(st.pool, src, true, st.amounts[0]!, true, st.timestamp);
  // The writer clears every tick of every array in one group while the read is open.
  slab.beginGroup(dir);
  assert.equal(src.valid(), false, 'a group in flight invalidates the read');
  st.arrays.forEach((a, i) => writeTickArrayRecord(slab, records[i]!, { ...a, bitmap: new Uint32Array(3), liquidityNet: new Array<bigint>(88).fill(0n) }, 11n));
  slab.endGroup(11n);
  assert.equal(src.valid(), false, 'a group that ended since begin invalidates the read');
  assert.equal(src.begin(), true);
  const after = computeWhirlpoolSwap(st.pool, src, true, st.amounts[0]!, true, st.timestamp);
  assert.equal(src.valid(), true);
  assert.equal(after.ticksCrossed, 0, 'the new read sees the cleared ticks');
  assert.notDeepEqual(after, before);
});

test('an array unlisted and freed reads as not held: the quote stops with DEPTH_UNKNOWN', () => {
  const st = randomWhirlpoolStates(7_002, 100).find((s) => s.held.length === s.arrays.length && s.pool.liquidity > 0n && s.pool.adaptiveFee === null)!;
  const slab = ArraySlab.create(SERVICE_DATA_WORDS, 8, 64);
  const { dir, records } = ingest(slab, 1, st.arrays, 5n);
  const src = new SlabTickSource(slab, dir, st.pool.tickSpacing);
  const span = 88 * st.pool.tickSpacing;
  const current = Math.floor(st.pool.tickCurrentIndex / span) * span;
  const k = st.arrays.findIndex((a) => a.startTickIndex === current);
  slab.beginGroup(dir);
  slab.list(records.filter((_r, i) => i !== k));
  slab.free(records[k]!);
  slab.endGroup(6n);
  assert.equal(src.begin(), true);
  assert.equal(src.hasArray(current), false);
  const q = computeWhirlpoolSwap(st.pool, src, true, 1n, true, st.timestamp);
  assert.equal(src.valid(), true);
  assert.equal(q.status, 'DEPTH_UNKNOWN');
});
