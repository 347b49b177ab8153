import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { QuoteResult, SwapMode } from '../adapters/types.js';
import { chainQuotes, chainTotals, legAmounts, type LegQuoter } from './leg-amounts.js';

const ok = (inAmount: bigint, outAmount: bigint): QuoteResult => ({ status: 'OK', inAmount, outAmount, feeAmount: 0n, feeOnInput: true });

/** A leg at a fixed rate (out = in x num / den, floor; exact-out: in = ceil(out x den / num)); records what it was asked. */
function rateLeg(num: bigint, den: bigint, asked: [bigint, SwapMode][] = []): LegQuoter {
  return (amount, mode) => {
    asked.push([amount, mode]);
    return mode === 'ExactIn' ? ok(amount, (amount * num) / den) : ok((amount * den + num - 1n) / num, amount);
  };
}

test('ExactIn chains forwards: each leg is offered the previous leg\'s output', () => {
  const asked: [bigint, SwapMode][] = [];
  const c = chainQuotes('ExactIn', 1000n, [rateLeg(3n, 2n, asked), rateLeg(1n, 4n, asked)]);
  assert.ok(c.ok);
  assert.deepEqual(asked, [[1000n, 'ExactIn'], [1500n, 'ExactIn']]);
  assert.deepEqual(c.legs, [
    { amount: 1000n, inAmount: 1000n, outAmount: 1500n },
    { amount: 1500n, inAmount: 1500n, outAmount: 375n },
  ]);
  assert.deepEqual(chainTotals('ExactIn', c.legs), { inAmount: 1000n, outAmount: 375n });
});

test('ExactIn totals: the amount offered, also when the first leg charges less (a PumpSwap buy)', () => {
  const cheap: LegQuoter = (amount) => ok(amount - 7n, amount * 2n);
  const c = chainQuotes('ExactIn', 100n, [cheap]);
  assert.ok(c.ok);
  assert.deepEqual(chainTotals('ExactIn', c.legs), { inAmount: 100n, outAmount: 200n });
});

test('ExactOut chains backwards: each leg is asked for what the next leg needs', () => {
  const asked: [bigint, SwapMode][] = [];
  const c = chainQuotes('ExactOut', 300n, [rateLeg(3n, 2n, asked), rateLeg(1n, 4n, asked)]);
  assert.ok(c.ok);
  assert.deepEqual(asked, [[300n, 'ExactOut'], [1200n, 'ExactOut']]);
  assert.deepEqual(c.legs, [
    { amount: 1200n, inAmount: 800n, outAmount: 1200n },
    { amount: 300n, inAmount: 1200n, outAmount: 300n },
  ]);
  assert.deepEqual(chainTotals('ExactOut', c.legs), { inAmount: 800n, outAmount: 300n });
});

test('a leg that cannot quote stops the chain with its index and status', () => {
  const dry: LegQuoter = () => ({ status: 'INSUFFICIENT_LIQUIDITY', inAmount: 0n, outAmount: 0n, feeAmount: 0n, feeOnInput: true });
  assert.deepEqual(chainQuotes('ExactIn', 10n, [rateLeg(1n, 1n), dry]), { ok: false, leg: 1, status: 'INSUFFICIENT_LIQUIDITY' });
});

test('ExactIn leg amounts: every intermediate minimum is exactly the next leg\'s offer; the last is the quote\'s threshold', () => {
  const c = chainQuotes('ExactIn', 1000n, [rateLeg(3n, 2n), rateLeg(1n, 4n), rateLeg(5n, 1n)]);
  assert.ok(c.ok);
  assert.deepEqual(legAmounts('ExactIn', c.legs, 1800n), [
    { amount: 1000n, otherAmountThreshold: 1500n },
    { amount: 1500n, otherAmountThreshold: 375n },
    { amount: 375n, otherAmountThreshold: 1800n },
  ]);
});

test('ExactOut leg amounts: the first leg\'s most input is the quote\'s threshold, each later leg\'s is exactly what the previous delivers', () => {
  const c = chainQuotes('ExactOut', 300n, [rateLeg(3n, 2n), rateLeg(1n, 4n)]);
  assert.ok(c.ok);
  assert.deepEqual(legAmounts('ExactOut', c.legs, 805n), [
    { amount: 1200n, otherAmountThreshold: 805n },
    { amount: 300n, otherAmountThreshold: 1200n },
  ]);
});

test('one leg: its minimum is the quote\'s threshold', () => {
  const c = chainQuotes('ExactIn', 10n, [rateLeg(2n, 1n)]);
  assert.ok(c.ok);
  assert.deepEqual(legAmounts('ExactIn', c.legs, 19n), [{ amount: 10n, otherAmountThreshold: 19n }]);
});
