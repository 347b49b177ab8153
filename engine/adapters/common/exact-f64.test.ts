import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NO_F64, TWO53, divCeil, divFloor, mulDivCeil, mulDivFloor, productError, smallF64, toBig, u64F64 } from './exact-f64.js';
import { SeededRandom } from '../testing/seeded-random.js';

const TWO53_BIG = 1n << 53n;

/** Integers in [0, 2^53) crowded at the edges the fast paths switch on: 0, 1, 2^26..2^27, 2^52, 2^53 - 1. */
function edgy(rng: SeededRandom): bigint {
  switch (rng.int(8)) {
    case 0: return rng.range(0n, 3n);
    case 1: return TWO53_BIG - 1n - rng.range(0n, 1000n);
    case 2: return (1n << 52n) + rng.range(0n, 1000n) - 500n;
    case 3: return (1n << BigInt(rng.int(53))) - rng.range(0n, 1n);
    case 4: return (1n << 27n) + rng.range(0n, 3n) - 1n;
    default: return rng.magnitude(1, 53) % TWO53_BIG;
  }
}

test('productError gives the exact product of two integers below 2^53', () => {
  const rng = new SeededRandom(5301);
  for (let i = 0; i < 200_000; i++) {
    const a = edgy(rng);
    const b = edgy(rng);
    const p = Number(a) * Number(b);
    const e = productError(Number(a), Number(b), p);
    assert.ok(Number.isInteger(e));
    assert.equal(BigInt(p) + BigInt(e), a * b, `${a} * ${b}`);
  }
});

test('mulDivFloor / mulDivCeil are exact or decline (NO_F64) only for quotients >= 2^53 - 16', () => {
  const rng = new SeededRandom(5302);
  let general = 0;
  for (let i = 0; i < 300_000; i++) {
    const a = edgy(rng);
    const b = edgy(rng);
    let c = edgy(rng);
    if (c === 0n) c = 1n;
    // Also quotients near their own limit: c a little below or above a * b / 2^53.
    if (rng.int(4) === 0) {
      const near = (a * b) / TWO53_BIG + rng.range(0n, 16n);
      if (near > 0n && near < TWO53_BIG) c = near;
    }
    const floor = (a * b) / c;
    const ceil = (a * b + c - 1n) / c;
    const f = mulDivFloor(Number(a), Number(b), Number(c));
    const g = mulDivCeil(Number(a), Number(b), Number(c));
    if (a * b >= TWO53_BIG) general++;
    if (f === NO_F64) assert.ok(floor >= TWO53_BIG - 16n, `declined ${a}*${b}/${c}`);
    else assert.equal(BigInt(f), floor, `floor ${a}*${b}/${c}`);
    if (g === NO_F64) assert.ok(ceil >= TWO53_BIG - 16n, `declined ceil ${a}*${b}/${c}`);
    else assert.equal(BigInt(g), ceil, `ceil ${a}*${b}/${c}`);
  }
  assert.ok(general > 100_000, 'the two-product path was exercised');
});

test('mulDivFloor / mulDivCeil with divisors below 2^26 (fee denominators and rates: the split case)', () => {
  const rng = new SeededRandom(5305);
  for (let i = 0; i < 300_000; i++) {
    const a = edgy(rng);
    const c = rng.int(3) === 0 ? rng.pick([1n, 2n, 10_000n, 999_999n, 1_000_000n, (1n << 26n) - 1n]) : rng.range(1n, (1n << 26n) - 1n);
    const b = rng.int(2) === 0 ? rng.range(0n, c) : edgy(rng);
    const floor = (a * b) / c;
    const ceil = (a * b + c - 1n) / c;
    const f = mulDivFloor(Number(a), Number(b), Number(c));
    const g = mulDivCeil(Number(a), Number(b), Number(c));
    if (f === NO_F64) assert.ok(floor >= TWO53_BIG - 16n, `declined ${a}*${b}/${c}`);
    else assert.equal(BigInt(f), floor, `floor ${a}*${b}/${c}`);
    if (g === NO_F64) assert.ok(ceil >= TWO53_BIG - 16n, `declined ceil ${a}*${b}/${c}`);
    else assert.equal(BigInt(g), ceil, `ceil ${a}*${b}/${c}`);
  }
});

test('mulDivFloor / mulDivCeil around the direct-remainder switch (divisors near 2^50) with wide products', () => {
  const rng = new SeededRandom(5306);
  for (let i = 0; i < 200_000; i++) {
    const c = (1n << 50n) + rng.range(0n, 64n) - 32n;
    const a = TWO53_BIG - 1n - rng.range(0n, 1n << BigInt(rng.int(53)));
    const b = rng.int(2) === 0 ? rng.range(c, TWO53_BIG - 1n) : rng.range(1n, 1n << 20n);
    const floor = (a * b) / c;
    const ceil = (a * b + c - 1n) / c;
    const f = mulDivFloor(Number(a), Number(b), Number(c));
    const g = mulDivCeil(Number(a), Number(b), Number(c));
    if (f === NO_F64) assert.ok(floor >= TWO53_BIG - 16n, `declined ${a}*${b}/${c}`);
    else assert.equal(BigInt(f), floor, `floor ${a}*${b}/${c}`);
    if (g === NO_F64) assert.ok(ceil >= TWO53_BIG - 16n, `declined ceil ${a}*${b}/${c}`);
    else assert.equal(BigInt(g), ceil, `ceil ${a}*${b}/${c}`);
  }
});

test('divFloor / divCeil are exact for integers below 2^53', () => {
  const rng = new SeededRandom(5303);
  for (let i = 0; i < 200_000; i++) {
    const n = edgy(rng);
    let d = edgy(rng);
    if (d === 0n) d = 1n;
    assert.equal(BigInt(divFloor(Number(n), Number(d))), n / d);
    assert.equal(BigInt(divCeil(Number(n), Number(d))), (n + d - 1n) / d);
  }
});

test('toBig and smallF64 round-trip every integer class below 2^53 and refuse the rest', () => {
  const rng = new SeededRandom(5304);
  for (let i = 0; i < 100_000; i++) {
    const x = edgy(rng);
    assert.equal(toBig(Number(x)), x);
    assert.equal(smallF64(x), Number(x));
    assert.equal(u64F64(x), Number(x));
    // Any u64 at or above 2^53 is refused, however its low half looks.
    const high = (1n << BigInt(53 + rng.int(11))) + x;
    if (high <= (1n << 64n) - 1n) assert.equal(u64F64(high), NO_F64);
  }
  assert.equal(u64F64((1n << 64n) - 1n), NO_F64);
  assert.equal(u64F64(TWO53_BIG), NO_F64);
  assert.equal(u64F64(TWO53_BIG - 1n), TWO53 - 1);
  assert.equal(u64F64(-1n), NO_F64);
  for (const x of [0, 1, 2 ** 30 - 1, 2 ** 30, 2 ** 31, 2 ** 52 - 1, 2 ** 52, 2 ** 52 + 1, TWO53 - 1]) assert.equal(toBig(x), BigInt(x));
  assert.equal(smallF64(TWO53_BIG), NO_F64);
  assert.equal(smallF64(-1n), NO_F64);
  assert.equal(smallF64((1n << 64n) - 1n), NO_F64);
});
