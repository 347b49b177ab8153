/**
 * Differential test of the adapter (layout -> buildState -> fee schedule -> math) against
 * `@pump-fun/pump-swap-sdk@1.20.0` over seeded random pools, both directions, both modes.
 *
 * Per (pool, mode), with the SDK decoding the very accounts we encoded:
 * - sell ExactIn vs `sellBaseInput`; buy ExactOut vs `buyBaseInput`; buy ExactIn vs `buyQuoteInput`.
 *   The SDK "accepts" when it does not throw and its result passes the checks the program makes and the SDK
 *   does not (amounts > 0 and within u64, vaults stay within u64). Ours is OK exactly when the SDK accepts,
 *   and then the amounts are equal (output, total cost, curve quote, fee-net budget).
 *   buy ExactIn also checks that what we charge equals `buyBaseInput` of the base bought (<= the budget).
 * - sell ExactOut vs `sellQuoteInput`: the SDK's base is an approximation (a pre-fee inversion, then a ceiling),
 *   ours is the smallest base whose `sellBaseInput` output reaches the amount. Checked: SDK throws => ours not
 *   OK; ours OK => `sellBaseInput(ours)` pays >= the amount and `sellBaseInput(ours - 1)` does not; where the
 *   two bases differ (counted, documented), the SDK's base is either short (its own `sellBaseInput` pays less
 *   than asked) or not smaller than ours.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pumpswapAdapter as adapter } from './adapter.js';
import { U64_MAX } from './math.js';
import { type PumpswapSwap } from './math.js';
import { randomPumpswapCases } from './testing/random-states.js';
import { sdkCall, sdkContext } from './testing/sdk-oracle.js';
import { tokenAccountAmount } from '../common/spl-layouts.js';
import { decodeMint } from '../common/spl-layouts.js';
import { pumpswapFixture, testClock } from './testing/test-fixture.js';

const STATES = 2200;
const SEED = 20_260_911;

test(`PumpSwap math matches the SDK over ${STATES} random pools x 4 direction/mode pairs`, (t) => {
  const counts = { states: 0, sellIn: 0, sellOut: 0, buyIn: 0, buyOut: 0, ok: 0, sdkThrows: 0, sellOutBaseDiffers: 0, sellOutSdkShort: 0, sdkNegativeBudget: 0, mismatches: 0 };
  const mismatches: string[] = [];
  const cases = randomPumpswapCases(SEED, STATES);
  cases.forEach((c, i) => {
    const fx = pumpswapFixture(c.options, c.label);
    const poolData = fx.accounts.get(fx.poolAddress)!;
    const state = adapter.buildState(fx.descriptor, poolData, fx.accounts, testClock());
    assert.ok(state, `state ${i}`);
    counts.states++;
    const [, , mintKey, baseVaultKey, quoteVaultKey] = fx.descriptor.dependencies;
    const B = tokenAccountAmount(fx.accounts.get(baseVaultKey!)!);
    const vault = tokenAccountAmount(fx.accounts.get(quoteVaultKey!)!);
    const ctx = sdkContext(poolData, fx.accounts.get(fx.descriptor.dependencies[0]!)!, fx.accounts.get(fx.descriptor.dependencies[1]!)!,
      decodeMint(fx.accounts.get(mintKey!)!).supply, B, vault);
    const where = (m: string, amount: bigint): string => `state ${i} ${m} amount=${amount} B=${B} vault=${vault} Qeff=${state.quoteReserve} fees=${state.fees.lpFeeBps}/${state.fees.protocolFeeBps}/${state.fees.creatorFeeBps}`;
    const fail = (s: string): void => { mismatches.push(s); };
    const q = (aToB: boolean, amount: bigint, mode: 'ExactIn' | 'ExactOut'): PumpswapSwap => adapter.quote(state, aToB, amount, mode) as PumpswapSwap;

    // sell ExactIn
    {
      counts.sellIn++;
      const ours = q(true, c.sellIn, 'ExactIn');
      const s = sdkCall(ctx, 'sellBaseInput', c.sellIn);
      if (!s) counts.sdkThrows++;
      const accepts = s !== null && s.uiQuote! > 0n && B + c.sellIn <= U64_MAX;
      if ((ours.status === 'OK') !== accepts) fail(`sellIn status ours=${ours.status} sdk=${s ? s.uiQuote : 'throw'}: ${where('sellIn', c.sellIn)}`);
      else if (accepts && (ours.outAmount !== s.uiQuote || ours.curveQuote !== s.internalQuoteAmountOut)) fail(`sellIn ours=${ours.outAmount} sdk=${s.uiQuote}: ${where('sellIn', c.sellIn)}`);
      if (ours.status === 'OK') counts.ok++;
    }
    // buy ExactOut (base out)
    {
      counts.buyOut++;
      const ours = q(false, c.buyOut, 'ExactOut');
      const s = sdkCall(ctx, 'buyBaseInput', c.buyOut);
      if (!s) counts.sdkThrows++;
      const accepts = s !== null && c.buyOut > 0n && s.uiQuote! <= U64_MAX && vault + s.uiQuote! <= U64_MAX;
      if ((ours.status === 'OK') !== accepts) fail(`buyOut status ours=${ours.status} sdk=${s ? s.uiQuote : 'throw'}: ${where('buyOut', c.buyOut)}`);
      else if (accepts && (ours.inAmount !== s.uiQuote || ours.curveQuote !== s.internalQuoteAmount)) fail(`buyOut ours=${ours.inAmount} sdk=${s.uiQuote}: ${where('buyOut', c.buyOut)}`);
      if (ours.status === 'OK') counts.ok++;
    }
    // buy ExactIn (quote in): buy_exact_quote_in
    {
      counts.buyIn++;
      const ours = q(false, c.buyIn, 'ExactIn');
      const s = sdkCall(ctx, 'buyQuoteInput', c.buyIn);
      if (!s) counts.sdkThrows++;
      // A fee-net budget below 2 atoms makes the SDK's formula divide negatives (a "base" above the reserve); the
      // program's unsigned arithmetic fails there. Checked separately below: such cases are all tiny budgets.
      const accepts = s !== null && s.base! > 0n && s.internalQuoteWithoutFees! > 1n && s.base! < B;
      if (s !== null && s.base! > 0n && !accepts) counts.sdkNegativeBudget++;
      if ((ours.status === 'OK') !== accepts) fail(`buyIn status ours=${ours.status} sdk=${s ? s.base : 'throw'}: ${where('buyIn', c.buyIn)}`);
      else if (accepts) {
        const cost = sdkCall(ctx, 'buyBaseInput', s.base!);
        if (ours.outAmount !== s.base || ours.effectiveQuote !== s.internalQuoteWithoutFees || !cost || ours.inAmount !== cost.uiQuote || ours.inAmount > c.buyIn) {
          fail(`buyIn ours=${ours.outAmount}/${ours.inAmount} sdk=${s.base}/${cost?.uiQuote}: ${where('buyIn', c.buyIn)}`);
        }
      }
      if (ours.status === 'OK') counts.ok++;
    }
    // sell ExactOut (quote out): exact inversion vs the SDK's approximation
    {
      counts.sellOut++;
      const y = c.sellOut;
      const ours = q(true, y, 'ExactOut');
      const s = sdkCall(ctx, 'sellQuoteInput', y);
      if (!s) counts.sdkThrows++;
      if (ours.status === 'OK') {
        counts.ok++;
        const paid = sdkCall(ctx, 'sellBaseInput', ours.inAmount);
        const less = ours.inAmount > 1n ? sdkCall(ctx, 'sellBaseInput', ours.inAmount - 1n) : null;
        if (!paid || paid.uiQuote !== ours.outAmount || ours.outAmount < y) fail(`sellOut pays ${paid?.uiQuote} ours=${ours.outAmount}: ${where('sellOut', y)}`);
        else if (less && less.uiQuote! >= y) fail(`sellOut not minimal (${ours.inAmount} - 1 pays ${less.uiQuote}): ${where('sellOut', y)}`);
        if (!s) fail(`sellOut SDK throws, ours OK: ${where('sellOut', y)}`);
        else if (s.base !== ours.inAmount) {
          counts.sellOutBaseDiffers++;
          const sdkPays = sdkCall(ctx, 'sellBaseInput', s.base!);
          const short = !sdkPays || sdkPays.uiQuote! < y;
          if (short) counts.sellOutSdkShort++;
          else if (s.base! < ours.inAmount) fail(`sellOut SDK base ${s.base} smaller and sufficient vs ours ${ours.inAmount}: ${where('sellOut', y)}`);
        }
      } else if (s && s.base! > 0n && s.base! <= U64_MAX && B + s.base! <= U64_MAX) {
        // Ours found no base: the SDK's base must then fail to pay the amount through its own sellBaseInput.
        const sdkPays = sdkCall(ctx, 'sellBaseInput', s.base!);
        if (sdkPays && sdkPays.uiQuote! >= y) fail(`sellOut ours=${ours.status} but SDK base ${s.base} pays ${sdkPays.uiQuote}: ${where('sellOut', y)}`);
        else counts.sellOutSdkShort++;
      }
    }
  });
  counts.mismatches = mismatches.length;
  t.diagnostic(`pumpswap diff summary ${JSON.stringify(counts)}`);
  assert.deepEqual(mismatches.slice(0, 5), []);
  assert.equal(mismatches.length, 0);
  assert.ok(counts.ok > counts.states * 2, `only ${counts.ok} OK cases`);
});
