/**
 * CPMM quotes with Token-2022 transfer fees against the program's composition rebuilt from independent parts:
 * the Raydium SDK's getTransferAmountFeeV2 for every transfer fee (forward and inverse) and math.ts's curve
 * (itself proven against the SDK's CurveCalculator in math.diff.test.ts), in the order swap_base_input /
 * swap_base_output apply them. 2,500 seeded states with a fee schedule on one or both mints x 2 directions x
 * 2 modes. Then the same through the adapter's record: quotes from fromRecord(toRecord(state)) are identical.
 * The composition has no vaults: a swap whose credit would take the input vault (here the reserve) past u64 fails
 * the program's token transfer; ours refuses it (failure TokenOverflow) with the composition's amounts, counted apart.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { SeededRandom } from '../testing/seeded-random.js';
import type { TransferFee } from '../common/transfer-fee.js';
import { PARAM_F64_WORDS, PARAM_U64_WORDS, type RecordFields } from '../types.js';
import { U64_MAX, isCreatorFeeOnInput, swapBaseInput, swapBaseOutput } from './math.js';
import { cpmmQuote } from './quote.js';
import { randomCpmmStates } from './testing/random-states.js';
import { cpmmFromRecord, cpmmToRecord } from './record.js';
import { CPMM_STATUS_OK, type CpmmState } from './state.js';

const require = createRequire(import.meta.url);
const BN = require('bn.js') as new (v: string) => { toString(): string };
const { getTransferAmountFeeV2 } = require('@raydium-io/raydium-sdk-v2/lib/common/transfer.js') as {
  getTransferAmountFeeV2(amount: unknown, config: unknown, epochInfo: unknown, addFee: boolean): { fee?: { toString(): string } };
};

const STATES = 2500;

/** The SDK's fee on `amount` (forward) or the fee to add so the recipient nets `amount` (inverse). */
function sdkFee(s: TransferFee | null, amount: bigint, inverse: boolean): bigint {
  if (!s) return 0n;
  const sched = { epoch: '0', maximumFee: s.maximumFee.toString(), transferFeeBasisPoints: s.basisPoints };
  const r = getTransferAmountFeeV2(new BN(amount.toString()), { olderTransferFee: sched, newerTransferFee: sched }, { epoch: 1n, slotsInEpoch: 432_000, absoluteSlot: 432_000 }, inverse);
  return BigInt(r.fee?.toString() ?? '0');
}

function randomFee(rng: SeededRandom): TransferFee | null {
  if (rng.int(3) === 0) return null;
  const basisPoints = rng.pick([1, 10, 50, 100, 500, 1_000, rng.int(10_000)]);
  const maximumFee = rng.pick([1n, 1_000n, rng.magnitude(1, 50), U64_MAX]);
  return { epoch: 0n, basisPoints, maximumFee };
}

interface Oracle {
  readonly ok: boolean;
  readonly inAmount: bigint;
  readonly outAmount: bigint;
  readonly transferOut: bigint;
}

/** swap_base_input / swap_base_output around the curve, every transfer fee from the SDK. */
function oracle(st: CpmmState, aToB: boolean, amount: bigint, exactIn: boolean): Oracle {
  const no: Oracle = { ok: false, inAmount: 0n, outAmount: 0n, transferOut: 0n };
  const onInput = isCreatorFeeOnInput(st.creatorFeeOn, aToB);
  const [rin, rout] = aToB ? [st.reserve0, st.reserve1] : [st.reserve1, st.reserve0];
  const [fin, fout] = aToB ? [st.transferFee0, st.transferFee1] : [st.transferFee1, st.transferFee0];
  if (exactIn) {
    const actual = amount - sdkFee(fin, amount, false);
    if (actual <= 0n) return no;
    const r = swapBaseInput(actual, rin, rout, st.rates, onInput);
    if (r.status !== 'OK') return no;
    const received = r.outAmount - sdkFee(fout, r.outAmount, false);
    return received > 0n ? { ok: true, inAmount: amount, outAmount: received, transferOut: r.outAmount } : no;
  }
  const actualOut = amount + sdkFee(fout, amount, true);
  if (actualOut > U64_MAX) return no;
  const r = swapBaseOutput(actualOut, rin, rout, st.rates, onInput);
  if (r.status !== 'OK') return no;
  const transferIn = r.inAmount + sdkFee(fin, r.inAmount, true);
  if (transferIn > U64_MAX) return no;
  return { ok: true, inAmount: transferIn, outAmount: actualOut - sdkFee(fout, actualOut, false), transferOut: actualOut };
}

test(`quotes with transfer fees equal the program's composition over ${STATES} states x 2 directions x 2 modes`, (t) => {
  const rng = new SeededRandom(2026_11_22);
  let cases = 0;
  let ok = 0;
  let feeChanged = 0;
  let vaultOverflow = 0;
  const mismatches: string[] = [];
  const rec: RecordFields = { status: 0, reserveA: 0n, reserveB: 0n, u64: new Array<bigint>(PARAM_U64_WORDS).fill(0n), f64: new Array<number>(PARAM_F64_WORDS).fill(0) };
  for (const s of randomCpmmStates(77, STATES)) {
    let transferFee0 = randomFee(rng);
    const transferFee1 = randomFee(rng);
    if (!transferFee0 && !transferFee1) transferFee0 = { epoch: 0n, basisPoints: 100, maximumFee: U64_MAX };
    const st: CpmmState = { status: CPMM_STATUS_OK, reserve0: s.reserve0, reserve1: s.reserve1, vault0: s.reserve0, vault1: s.reserve1, rates: s.rates, creatorFeeOn: s.creatorFeeOn, openTime: 0n, poolStatusBits: 0, transferFee0, transferFee1, transferFeeChanges: false };
    cpmmToRecord(st, rec);
    const back = cpmmFromRecord(rec);
    for (const aToB of [true, false]) {
      for (const exactIn of [true, false]) {
        cases++;
        const amount = exactIn ? (aToB ? s.amountIn01 : s.amountIn10) : (aToB ? s.amountOut01 : s.amountOut10);
        const ours = cpmmQuote(st, aToB, amount, exactIn ? 'ExactIn' : 'ExactOut');
        const fromRecord = cpmmQuote(back, aToB, amount, exactIn ? 'ExactIn' : 'ExactOut');
        const o = oracle(st, aToB, amount, exactIn);
        const where = `${aToB ? '0->1' : '1->0'} ${exactIn ? 'in' : 'out'} amount=${amount} r=${s.reserve0}/${s.reserve1} fees=${JSON.stringify([transferFee0, transferFee1], (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`;
        if (fromRecord.inAmount !== ours.inAmount || fromRecord.outAmount !== ours.outAmount || fromRecord.status !== ours.status) mismatches.push(`record: ${where}`);
        // The composition stops before the user -> vault transfer; the token program fails it when the vault (here
        // the reserve) plus what it is credited passes u64. Counted apart: ours must carry the composition's amounts.
        if (o.ok && ours.failure === 'TokenOverflow') {
          const fin = aToB ? st.transferFee0 : st.transferFee1;
          const overflows = (aToB ? st.vault0 : st.vault1) + o.inAmount - sdkFee(fin, o.inAmount, false) > U64_MAX;
          if (overflows && ours.inAmount === o.inAmount && ours.outAmount === o.outAmount) vaultOverflow++;
          else mismatches.push(`vault overflow ${ours.inAmount}/${ours.outAmount} vs ${o.inAmount}/${o.outAmount}: ${where}`);
          continue;
        }
        if ((ours.status === 'OK') !== o.ok) { mismatches.push(`status ${ours.status} vs ${o.ok}: ${where}`); continue; }
        if (!o.ok) continue;
        ok++;
        if (ours.inAmount !== o.inAmount || ours.outAmount !== o.outAmount || ours.transferOut !== o.transferOut || ours.transferIn !== o.inAmount) {
          mismatches.push(`fields ${ours.inAmount}/${ours.outAmount}/${ours.transferOut} vs ${o.inAmount}/${o.outAmount}/${o.transferOut}: ${where}`);
          continue;
        }
        const plain = cpmmQuote({ ...st, transferFee0: null, transferFee1: null }, aToB, amount, exactIn ? 'ExactIn' : 'ExactOut');
        if (plain.inAmount !== ours.inAmount || plain.outAmount !== ours.outAmount) feeChanged++;
      }
    }
  }
  t.diagnostic(`cpmm transfer-fee diff ${JSON.stringify({ cases, ok, feeChanged, vaultOverflow, mismatches: mismatches.length })}`);
  assert.deepEqual(mismatches.slice(0, 5), []);
  assert.ok(ok > cases / 3, `only ${ok} OK cases of ${cases}`);
  assert.ok(feeChanged > ok / 2, `transfer fees change most quotes (${feeChanged} of ${ok})`);
});
