/**
 * Differential test of the fee selection and the curve math against the pump SDK (`getBuyTokenAmountFromSolAmount`,
 * `getBuySolAmountFromTokenAmount`, `getSellSolAmountFromTokenAmount`) over seeded random setups. Both sides
 * read the same bytes: our encoders write the curve (in its layout version) and the FeeConfig (in its version);
 * the SDK's own versioned decoders read them for the SDK, ours for us.
 *
 * Per setup, four cases (buy exact-in, buy exact-out, sell exact-in, sell exact-out):
 * - SDK throws (no fee schedule) <=> our fee selection returns null; those count as matches when ours is not OK.
 * - buy exact-out: ours OK <=> the SDK's cost is > 0 and <= u64 and the capped amount is below the virtual
 *   reserves; then inAmount equals it and outAmount = min(amount, real_token_reserves).
 * - sell exact-in: equal outputs when ours is OK; the SDK's output <= 0 <=> ours ZERO_AMOUNT. D2 (counted
 *   apart): the gross SOL exceeds real_quote_reserves, which the SDK does not check; ours is INSUFFICIENT_LIQUIDITY.
 * - buy exact-in: equal token amounts, and our debit equals the SDK's exact-out cost of those tokens. D1
 *   (counted apart): we follow the program's `buy_exact_sol_in` formula from the IDL, the SDK a shortcut whose
 *   curve input can be a lamport or two larger. Each D1 case must be explained: the SDK's own function, given a
 *   budget whose curve input equals ours, returns exactly our tokens; its answer is never smaller than ours.
 * - sell exact-out (no SDK function): our input t is minimal and exact: the SDK's sell of t gives our output
 *   (>= the request), of t - 1 less than the request.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FEE_CONFIG_CURRENT_SIZE, encodeFeeConfig, tryDecodeFeeConfig } from './fee-config.js';
import { tradeFeeBps } from './fees.js';
import { decodeBondingCurve, encodeBondingCurve } from './layout.js';
import { BPS, U64_MAX, buyExactQuoteIn, buyExactTokensOut, exactSolInNet, sellExactQuoteOut, sellExactTokensIn } from './math.js';
import { randomPumpSetups } from './testing/random-states.js';
import { type SdkArgs, bn, loadPumpSdk, pk, sdkGlobal, sdkQuote } from './testing/sdk-oracle.js';

const STATES = 2200;
const SEED = 20_260_501;

const ai = (data: Uint8Array) => ({ data: Buffer.from(data), executable: false, lamports: 0, owner: pk('11111111111111111111111111111111') });

test(`pump.fun math matches the SDK over ${STATES} random setups x 4 (direction, mode)`, (t) => {
  const { sdk } = loadPumpSdk();
  const setups = randomPumpSetups(SEED, STATES);
  const c = { cases: 0, ok: 0, matches: 0, sdkThrows: 0, d1: 0, d2: 0, perMode: { buyIn: 0, buyOut: 0, sellIn: 0, sellOut: 0 } };
  const mismatches: string[] = [];

  setups.forEach((s, i) => {
    const curveBytes = encodeBondingCurve(s.curve, s.curveSize);
    const curve = decodeBondingCurve(curveBytes);
    const feeBytes = s.feeConfig ? encodeFeeConfig(s.feeConfig, s.feeConfigSize ?? FEE_CONFIG_CURRENT_SIZE) : null;
    const feeConfig = feeBytes ? tryDecodeFeeConfig(feeBytes) : null;
    assert.ok(feeBytes === null || feeConfig !== null);
    const args: SdkArgs = {
      global: sdkGlobal(s.global),
      feeConfig: feeBytes ? sdk.PUMP_SDK.decodeFeeConfig(ai(feeBytes)) : null,
      mintSupply: bn(s.mintSupply),
      bondingCurve: sdk.PUMP_SDK.decodeBondingCurve(ai(curveBytes)),
      quoteMint: pk(curve.quoteMint),
    };
    const fees = tradeFeeBps(s.global, feeConfig, curve, s.mintSupply);
    const where = (what: string, amount: bigint) => `setup ${i} ${what} amount=${amount} size=${s.curveSize} vT=${curve.virtualTokenReserves} vQ=${curve.virtualQuoteReserves} rT=${curve.realTokenReserves} rQ=${curve.realQuoteReserves} fees=${fees ? `${fees.protocolFeeBps}/${fees.creatorFeeBps}` : 'none'}`;

    // buy exact-in
    {
      c.cases++; c.perMode.buyIn++;
      const a = s.buyQuoteIn;
      const sdkOut = sdkQuote('buyTokensForSol', args, a);
      const ours = fees ? buyExactQuoteIn(a, curve, fees) : null;
      if (ours?.status === 'OK') c.ok++;
      if (sdkOut === null || fees === null || ours === null) {
        c.sdkThrows++;
        if ((sdkOut === null) !== (fees === null)) mismatches.push(`throw: ${where('buyIn', a)}`);
        else c.matches++;
      } else {
        const sdkAccepts = sdkOut > 0n && a <= U64_MAX;
        const same = ours.status === 'OK' ? sdkAccepts && ours.outAmount === sdkOut : !sdkAccepts;
        if (ours.status === 'OK') {
          // Our debit is what `buy` charges for these tokens: the SDK's exact-out cost of them.
          const cost = sdkQuote('buySolForTokens', args, ours.outAmount);
          if (cost !== ours.inAmount || ours.inAmount > a) mismatches.push(`debit ${ours.inAmount} vs sdk cost ${cost}: ${where('buyIn', a)}`);
        }
        if (same) c.matches++;
        else {
          // D1: the curve input. The SDK's function with a budget whose input equals ours gives our tokens.
          c.d1++;
          const x = exactSolInNet(a, fees) - 1n;
          const d = BPS + fees.protocolFeeBps + fees.creatorFeeBps;
          const budget = (x * d + BPS - 1n) / BPS + 1n;
          const explained = x >= 0n && sdkQuote('buyTokensForSol', args, budget) === (ours.status === 'OK' ? ours.outAmount : 0n) && (ours.status !== 'OK' || sdkOut > ours.outAmount);
          if (!explained) mismatches.push(`D1 unexplained ours=${ours.status}/${ours.outAmount} sdk=${sdkOut}: ${where('buyIn', a)}`);
        }
      }
    }
    // buy exact-out
    {
      c.cases++; c.perMode.buyOut++;
      const n = s.buyTokensOut;
      const sdkIn = sdkQuote('buySolForTokens', args, n);
      const ours = fees ? buyExactTokensOut(n, curve, fees) : null;
      if (ours?.status === 'OK') c.ok++;
      if (sdkIn === null || fees === null || ours === null) {
        c.sdkThrows++;
        if ((fees === null) || ours?.status !== 'OK') c.matches++;
        else mismatches.push(`throw: ${where('buyOut', n)}`);
      } else {
        const capped = n < curve.realTokenReserves ? n : curve.realTokenReserves;
        const sdkAccepts = sdkIn > 0n && sdkIn <= U64_MAX && capped > 0n && capped < curve.virtualTokenReserves && n <= U64_MAX;
        // The program also keeps the new quote reserves within u64 (the SDK does not look).
        const cost = capped < curve.virtualTokenReserves ? (capped * curve.virtualQuoteReserves) / (curve.virtualTokenReserves - capped) + 1n : 0n;
        const overflows = curve.virtualQuoteReserves + cost > U64_MAX || curve.realQuoteReserves + cost > U64_MAX;
        const same = ours.status === 'OK' ? sdkAccepts && ours.inAmount === sdkIn && ours.outAmount === capped : !sdkAccepts || overflows;
        if (same) c.matches++;
        else mismatches.push(`ours=${ours.status}/${ours.inAmount} sdk=${sdkIn}: ${where('buyOut', n)}`);
      }
    }
    // sell exact-in
    {
      c.cases++; c.perMode.sellIn++;
      const tIn = s.sellTokensIn;
      const sdkOut = sdkQuote('sellSolForTokens', args, tIn);
      const ours = fees ? sellExactTokensIn(tIn, curve, fees) : null;
      if (ours?.status === 'OK') c.ok++;
      if (sdkOut === null || fees === null || ours === null) {
        c.sdkThrows++;
        if ((sdkOut === null) !== (fees === null)) mismatches.push(`throw: ${where('sellIn', tIn)}`);
        else c.matches++;
      } else if (ours.status === 'OK') {
        if (ours.outAmount === sdkOut) c.matches++;
        else mismatches.push(`ours=${ours.outAmount} sdk=${sdkOut}: ${where('sellIn', tIn)}`);
      } else if (sdkOut <= 0n || tIn > U64_MAX || curve.virtualTokenReserves + tIn > U64_MAX) {
        c.matches++;
      } else {
        const gross = (tIn * curve.virtualQuoteReserves) / (curve.virtualTokenReserves + tIn);
        if (ours.status === 'INSUFFICIENT_LIQUIDITY' && gross > curve.realQuoteReserves) c.d2++;
        else mismatches.push(`ours=${ours.status} sdk=${sdkOut}: ${where('sellIn', tIn)}`);
      }
    }
    // sell exact-out (inversion of the SDK's sell)
    {
      c.cases++; c.perMode.sellOut++;
      const want = s.sellQuoteOut;
      const ours = fees ? sellExactQuoteOut(want, curve, fees) : null;
      if (fees === null || ours === null) { c.sdkThrows++; c.matches++; return; }
      if (ours.status === 'OK') {
        c.ok++;
        const at = sdkQuote('sellSolForTokens', args, ours.inAmount);
        const below = ours.inAmount > 1n ? sdkQuote('sellSolForTokens', args, ours.inAmount - 1n) : 0n;
        if (at === ours.outAmount && at >= want && below !== null && below < want) c.matches++;
        else mismatches.push(`inversion t=${ours.inAmount} sdk(t)=${at} sdk(t-1)=${below}: ${where('sellOut', want)}`);
      } else {
        // No input reaches it within the real reserves: the largest payable input falls short.
        const den = curve.virtualQuoteReserves - curve.realQuoteReserves;
        const tMax = den > 0n ? (curve.realQuoteReserves * curve.virtualTokenReserves) / den : U64_MAX;
        const best = sdkQuote('sellSolForTokens', args, tMax > 0n ? tMax : 1n);
        if (best === null || best < want + 2n || ours.status === 'ZERO_AMOUNT') c.matches++;
        else mismatches.push(`ours=${ours.status} but sdk(tMax=${tMax})=${best}: ${where('sellOut', want)}`);
      }
    }
  });

  t.diagnostic(`pumpfun diff summary ${JSON.stringify({ ...c, mismatches: mismatches.length })}`);
  assert.deepEqual(mismatches.slice(0, 5), []);
  assert.equal(mismatches.length, 0);
  assert.ok(c.ok > c.cases / 2, `only ${c.ok} OK cases of ${c.cases}`);
  assert.ok(c.d1 > 0 && c.sdkThrows > 0, 'the generator should reach D1 and an SDK throw');
  for (const v of Object.values(c.perMode)) assert.ok(v >= 2000);
});
