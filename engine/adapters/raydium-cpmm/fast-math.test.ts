/**
 * The fast path against the bigint port, field for field, over seeded states crowded at the fast path's
 * edges: amounts, reserves and intermediate products around 2^53, zero, one atom, u64::MAX, fee rates 0, 1 and
 * near 1e6, both creator-fee sides. The path must either decline (null) or give exactly the bigint result.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SeededRandom } from '../testing/seeded-random.js';
import { commonEdge } from '../testing/edge-values.js';
import { swapBaseInputF64, swapBaseOutputF64 } from './fast-math.js';
import { type CpmmFeeRates, type CpmmSwap, swapBaseInput, swapBaseInputBig, swapBaseOutput, swapBaseOutputBig } from './math.js';

function edgy(rng: SeededRandom): bigint {
  const kind = rng.int(9);
  const common = commonEdge(rng, kind);
  if (common !== null) return common;
  switch (kind) {
    case 4: return (1n << BigInt(20 + rng.int(34))) + rng.range(0n, 8n) - 4n;
    case 5: return rng.range(1n, 1_000_000n);
    case 6: return rng.magnitude(1, 64);
    default: return rng.magnitude(1, 56);
  }
}

function rate(rng: SeededRandom, max: bigint): bigint {
  return rng.pick([0n, 1n, 2500n, max, max - 1n, rng.range(0n, max)]);
}

function same(a: CpmmSwap, b: CpmmSwap): boolean {
  return a.status === b.status && a.inAmount === b.inAmount && a.outAmount === b.outAmount && a.feeAmount === b.feeAmount
    && a.tradeFee === b.tradeFee && a.creatorFee === b.creatorFee && a.protocolFee === b.protocolFee && a.fundFee === b.fundFee
    && a.creatorFeeOnInput === b.creatorFeeOnInput && a.swappedIn === b.swappedIn && a.swappedOut === b.swappedOut
    && a.transferIn === b.transferIn && a.transferOut === b.transferOut && a.failure === b.failure;
}

test('the fast path equals the bigint port or declines, at its edges (2^53, 0, u64::MAX, extreme rates)', () => {
  const rng = new SeededRandom(53_000);
  let fast = 0;
  let cases = 0;
  for (let i = 0; i < 120_000; i++) {
    const trade = rate(rng, 999_999n);
    const creator = rate(rng, 999_999n - trade);
    const protocol = rate(rng, 1_000_000n);
    const rates: CpmmFeeRates = { tradeFeeRate: trade, creatorFeeRate: creator, protocolFeeRate: protocol, fundFeeRate: rate(rng, 1_000_000n - protocol) };
    const rin = edgy(rng);
    const rout = edgy(rng);
    const amount = rng.int(2) === 0 ? edgy(rng) : rin >> BigInt(rng.int(40));
    const onInput = rng.int(2) === 0;
    for (const exactIn of [true, false]) {
      cases++;
      const f = exactIn ? swapBaseInputF64(amount, rin, rout, rates, onInput) : swapBaseOutputF64(amount, rin, rout, rates, onInput);
      const big = exactIn ? swapBaseInputBig(amount, rin, rout, rates, onInput) : swapBaseOutputBig(amount, rin, rout, rates, onInput);
      const dispatched = exactIn ? swapBaseInput(amount, rin, rout, rates, onInput) : swapBaseOutput(amount, rin, rout, rates, onInput);
      const where = `${exactIn ? 'in' : 'out'} amount=${amount} rin=${rin} rout=${rout} rates=${trade}/${creator}/${protocol}/${rates.fundFeeRate} onInput=${onInput}`;
      assert.ok(same(dispatched, big), `dispatch ${where}`);
      if (f === null) continue;
      fast++;
      assert.ok(same(f, big), where);
      assert.equal(f.status, 'OK');
    }
  }
  // The edges must not starve the fast path: a good share of the cases take it.
  assert.ok(fast > cases / 10, `${fast} of ${cases} on the fast path`);
});
