/**
 * The bigint-free u64 arithmetic (`u64-pair.ts`, `u64-mul-div.ts`) against bigint, over seeded values crowded at
 * its edges (0, 1, 2^24, 2^32 +- 1, 2^48, 2^53 +- 1, 2^64 - 1, products near 2^128, quotients near 2^64, exact
 * divisions, all three operands below 2^53) and with fast-check, bounded by time.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { SeededRandom } from '../testing/seeded-random.js';
import { MUL_DIV_ARGS, mulDivPair } from './u64-mul-div.js';
import { PAIR, TWO32, addPair, bigOfPair, mulDivSmall, pairAtLeast, pairBig, readU64, subPair } from './u64-pair.js';

const U64_MAX = (1n << 64n) - 1n;
const TIME_MS = 2000;
const opts = { interruptAfterTimeLimit: TIME_MS, numRuns: 1_000_000 };

/** A u64 near one of the edges, or anywhere (log-uniform). */
function edgy(rng: SeededRandom): bigint {
  switch (rng.int(10)) {
    case 0: return rng.range(0n, 3n);
    case 1: return (1n << 32n) + rng.range(0n, 2n) - 1n;
    case 2: return (1n << 53n) + rng.range(0n, 2n) - 1n;
    case 3: return U64_MAX - rng.range(0n, 3n);
    case 4: return (1n << BigInt(rng.int(64))) + rng.range(0n, 2n) - 1n;
    case 5: return ((1n << 24n) + rng.range(0n, 2n) - 1n) << BigInt(24 * rng.int(2));
    default: return rng.magnitude(1, 64);
  }
}

function split(x: bigint): [number, number] {
  return [Number(x >> 32n), Number(x & 0xffff_ffffn)];
}

function pairValue(): bigint {
  return (BigInt(PAIR.hi) << 32n) + BigInt(PAIR.lo);
}

/** Checks mulDivPair against bigint for one (a, b, d) in both roundings. */
function checkMulDiv(a: bigint, b: bigint, d: bigint): void {
  const [aHi, aLo] = split(a);
  const [bHi, bLo] = split(b);
  const [dHi, dLo] = split(d);
  const floor = (a * b) / d;
  const ceil = floor * d === a * b ? floor : floor + 1n;
  for (const [exact, isCeil] of [[floor, false], [ceil, true]] as const) {
    MUL_DIV_ARGS.set([aHi, aLo, bHi, bLo, dHi, dLo]);
    const ok = mulDivPair(isCeil);
    const where = `${isCeil ? 'ceil' : 'floor'}(${a} * ${b} / ${d})`;
    if (exact > U64_MAX) {
      assert.equal(ok, false, where);
      continue;
    }
    assert.equal(ok, true, where);
    assert.ok(PAIR.lo >= 0 && PAIR.lo < TWO32 && Number.isInteger(PAIR.lo) && Number.isInteger(PAIR.hi), where);
    assert.equal(pairValue(), exact, where);
  }
}

test('readU64 / pairBig round-trip every u64 edge', () => {
  const rng = new SeededRandom(6401);
  for (let i = 0; i < 50_000; i++) {
    const x = edgy(rng);
    readU64(x);
    assert.equal(pairValue(), x);
    assert.equal(pairBig(PAIR.hi, PAIR.lo), x);
    assert.equal(bigOfPair(), x);
  }
});

test('addPair, subPair and pairAtLeast equal bigint', () => {
  const rng = new SeededRandom(6402);
  for (let i = 0; i < 100_000; i++) {
    let a = edgy(rng);
    let b = edgy(rng);
    const [aHi, aLo] = split(a);
    const [bHi, bLo] = split(b);
    assert.equal(pairAtLeast(aHi, aLo, bHi, bLo), a >= b);
    addPair(aHi, aLo, bHi, bLo);
    assert.equal(pairValue(), a + b);
    if (a < b) [a, b] = [b, a];
    subPair(...split(a), ...split(b));
    assert.equal(pairValue(), a - b);
  }
});

test('mulDivSmall is exact for rates and denominators with m + d <= 2^21', () => {
  const rng = new SeededRandom(6403);
  for (let i = 0; i < 200_000; i++) {
    const x = edgy(rng);
    const d = BigInt(rng.pick([1, 2, 999_999, 1_000_000, 1_048_576, rng.int(1_000_000) + 1]));
    const mMax = (1n << 21n) - d;
    const m = rng.pick([0n, 1n, mMax, mMax - 1n, d, d - 1n, rng.range(0n, mMax)]);
    const [hi, lo] = split(x);
    const floor = (x * m) / d;
    for (const ceil of [false, true]) {
      PAIR.hi = hi;
      PAIR.lo = lo;
      mulDivSmall(Number(m), Number(d), ceil);
      const exact = ceil && floor * d !== x * m ? floor + 1n : floor;
      assert.ok(PAIR.lo >= 0 && PAIR.lo < TWO32, `${x} * ${m} / ${d}`);
      assert.equal(pairValue(), exact, `${ceil ? 'ceil' : 'floor'}(${x} * ${m} / ${d})`);
    }
  }
});

test('mulDivPair is exact (or reports a quotient past u64) at its edges', () => {
  const rng = new SeededRandom(6404);
  for (let i = 0; i < 300_000; i++) {
    const a = edgy(rng);
    const b = edgy(rng);
    let d: bigint;
    switch (rng.int(6)) {
      // Divisors that put the quotient near 2^64 (and just past it), and exact divisions.
      case 0: d = (a * b) / (U64_MAX - rng.range(0n, 3n)) + rng.range(0n, 2n); break;
      case 1: d = a > 0n ? a : 1n; break;
      case 2: d = b + rng.range(0n, 2n); break;
      // Sums of two u64s (the curve's rin + in), up to 2^65 - 2.
      case 3: d = edgy(rng) + edgy(rng); break;
      default: d = edgy(rng);
    }
    if (d === 0n) d = 1n;
    checkMulDiv(a, b, d);
  }
});

test('mulDivPair: products near 2^128 and quotients around 2^32, 2^53 and 2^64', () => {
  const rng = new SeededRandom(6405);
  const D_MAX = 2n * U64_MAX;
  for (let i = 0; i < 100_000; i++) {
    const a = U64_MAX - rng.range(0n, 1n << BigInt(rng.int(40)));
    const target = rng.pick([1n << 53n, 1n << 64n, U64_MAX, 1n << 32n, (1n << 53n) - 1n]);
    // b near target * d / a for a divisor up to 2^65 (the precondition), so a * b / d is near the target.
    const d0 = rng.int(2) === 0 ? D_MAX - rng.range(0n, 1n << BigInt(rng.int(60))) : rng.magnitude(1, 65) % D_MAX + 1n;
    let b = (target * d0) / a + rng.range(0n, 4n) - 2n;
    if (b < 0n) b = 0n;
    if (b > U64_MAX) b = U64_MAX - rng.range(0n, 3n);
    checkMulDiv(a, b, d0);
    checkMulDiv(b, a, d0);
  }
});

test('mulDivPair: operands below 2^53 and quotients near 2^53', () => {
  const rng = new SeededRandom(6406);
  const TWO53 = 1n << 53n;
  for (let i = 0; i < 100_000; i++) {
    const a = TWO53 - 1n - rng.range(0n, 1n << BigInt(rng.int(53)));
    const b = rng.int(2) === 0 ? TWO53 - 1n - rng.range(0n, 1000n) : rng.magnitude(1, 53);
    const target = rng.pick([TWO53 - 16n, TWO53 - 17n, TWO53 - 15n, TWO53, 1n << 40n, 3n]);
    let d = (a * b) / target + rng.range(0n, 4n) - 2n;
    if (d <= 0n) d = 1n;
    if (d >= TWO53) d = TWO53 - 1n - rng.range(0n, 3n);
    checkMulDiv(a, b, d);
  }
});

test('mulDivPair against bigint (fast-check)', () => {
  const u64 = fc.oneof(fc.bigInt({ min: 0n, max: U64_MAX }), fc.bigInt({ min: 0n, max: 1n << 54n }), fc.constantFrom(0n, 1n, U64_MAX, 1n << 53n, (1n << 32n) - 1n));
  const div = fc.oneof(fc.bigInt({ min: 1n, max: 2n * U64_MAX }), fc.bigInt({ min: 1n, max: 1n << 40n }));
  fc.assert(fc.property(u64, u64, div, (a, b, d) => checkMulDiv(a, b, d)), opts);
});
