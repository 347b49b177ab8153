/**
 * The compiled fee table resolves exactly what `tradeFeeBps` resolves (which `math.diff.test.ts` checks against the
 * SDK), over seeded setups whose tier thresholds sit at, one below and one above the curve's market cap, every quote
 * mint class, mayhem curves, creator overrides and creatorless curves, plus caps past the f64 path (2^53 and more);
 * and `pumpfunQuoteResolvingFees` equals `pumpfunQuote` on the state built from the same accounts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileFeeTable, resolveTradeFees } from './fee-table.js';
import { tradeFeeBps } from './fees.js';
import { pumpfunQuote, pumpfunQuoteResolvingFees } from './quote.js';
import { randomPumpSetups } from './testing/random-states.js';
import { PUMPFUN_STATUS_OK, type PumpfunState, curveStatus, PUMPFUN_STATUS_BAD_FEE_CONFIG } from './state.js';

test('resolveTradeFees equals tradeFeeBps on 20,000 setups (thresholds around the cap, every mint class)', () => {
  let tiered = 0;
  for (const [i, s] of randomPumpSetups(4242, 20_000).entries()) {
    if (s.curve.virtualTokenReserves === 0n) continue;
    const table = compileFeeTable(s.global, s.feeConfig);
    for (const supply of [s.mintSupply, null]) {
      const want = tradeFeeBps(s.global, s.feeConfig, s.curve, supply);
      const got = resolveTradeFees(table, s.curve, supply);
      assert.deepEqual(got, want, `setup ${i} supply ${supply}`);
    }
    if (s.feeConfig && s.feeConfig.feeTiers.length > 1) tiered++;
  }
  assert.ok(tiered > 5000);
});

test('resolveTradeFees matches at caps of 2^53 and beyond (the bigint market cap) and at huge thresholds', () => {
  const [s] = randomPumpSetups(77, 1);
  const g = { feeBasisPoints: 95n, creatorFeeBasisPoints: 30n, creatorFeeConfigurable: false };
  for (const vQ of [1n << 40n, (1n << 52n) + 3n, 1n << 53n, (1n << 64n) - 1n]) {
    for (const vT of [1n, 1000n, 1n << 30n, 1_073_000_000_000_000n]) {
      const curve = { ...s!.curve, virtualQuoteReserves: vQ, virtualTokenReserves: vT, isMayhemMode: false, quoteMint: '11111111111111111111111111111111' };
      const cap = (vQ * 1_000_000_000_000_000n) / vT;
      for (const d of [-1n, 0n, 1n]) {
        const fc = {
          bump: 255, admin: s!.curve.creator, flatFees: { lpFeeBps: 0n, protocolFeeBps: 1n, creatorFeeBps: 2n },
          feeTiers: [
            { marketCapThreshold: 0n, fees: { lpFeeBps: 0n, protocolFeeBps: 10n, creatorFeeBps: 20n } },
            { marketCapThreshold: cap + d > 0n ? cap + d : 1n, fees: { lpFeeBps: 0n, protocolFeeBps: 11n, creatorFeeBps: 21n } },
            { marketCapThreshold: 1n << 100n, fees: { lpFeeBps: 0n, protocolFeeBps: 12n, creatorFeeBps: 22n } },
          ],
          stableFeeTiers: [], exoticFlatFees: { lpFeeBps: 0n, protocolFeeBps: 0n, creatorFeeBps: 0n },
        };
        assert.deepEqual(resolveTradeFees(compileFeeTable(g, fc), curve, null), tradeFeeBps(g, fc, curve, null), `vQ ${vQ} vT ${vT} d ${d}`);
      }
    }
  }
});

test('pumpfunQuoteResolvingFees equals pumpfunQuote on the built state, all modes (5,000 setups)', () => {
  for (const [i, s] of randomPumpSetups(4343, 5000).entries()) {
    const table = compileFeeTable(s.global, s.feeConfig);
    let status = curveStatus(s.curve);
    let fees = { protocolFeeBps: 0n, creatorFeeBps: 0n };
    if (s.curve.virtualTokenReserves > 0n) {
      const f = tradeFeeBps(s.global, s.feeConfig, s.curve, s.mintSupply);
      if (f === null) status = status === PUMPFUN_STATUS_OK ? PUMPFUN_STATUS_BAD_FEE_CONFIG : status;
      else fees = f;
    }
    const state: PumpfunState = { status, ...s.curve, ...fees };
    for (const [aToB, amount, mode] of [[false, s.buyQuoteIn, 'ExactIn'], [false, s.buyTokensOut, 'ExactOut'], [true, s.sellTokensIn, 'ExactIn'], [true, s.sellQuoteOut, 'ExactOut']] as const) {
      assert.deepEqual(pumpfunQuoteResolvingFees(s.curve, table, s.mintSupply, aToB, amount, mode), pumpfunQuote(state, aToB, amount, mode), `setup ${i} ${aToB} ${mode}`);
    }
  }
});
