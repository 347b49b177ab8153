/**
 * Layouts against the SDK's codecs (`@orca-so/whirlpools-client`): the SDK decodes what we encode and we decode
 * what the SDK encodes (Whirlpool, Oracle; fixed and dynamic tick arrays), and every real mainnet account of the
 * shared set decodes to what the SDK's decoder reads from the same bytes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DYNAMIC_TICK_ARRAY_MAX_SIZE, DYNAMIC_TICK_ARRAY_MIN_SIZE, FIXED_TICK_ARRAY_SIZE, ORACLE_FIELDS, ORACLE_SIZE,
  WHIRLPOOL_FIELDS, WHIRLPOOL_SIZE, decodeOracle, decodeTickArray, decodeWhirlpool, encodeOracle, encodeWhirlpool,
  type OracleFields, type WhirlpoolFields,
} from './layout.js';
import { FIELD_SIZE, ZERO_KEY } from '../common/field-table.js';
import { SeededRandom } from '../testing/seeded-random.js';
import { TICK_ARRAY_SIZE } from './tick-math.js';
import type { TickArrayTicks } from './tick-source.js';
import { encodeTickArrayWithSdk, SOME_KEY } from './testing/sdk-accounts.js';
import { sdkClient } from './testing/sdk-oracle.js';
import { realWhirlpoolAccounts } from './testing/real-accounts.js';

const KEY2 = 'So11111111111111111111111111111111111111112';
const KEY3 = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';

function sampleWhirlpool(): WhirlpoolFields {
  return {
    whirlpoolsConfig: SOME_KEY, whirlpoolBump: 254, tickSpacing: 64, feeTierIndexSeed: 1088, feeRate: 3000, protocolFeeRate: 1300,
    liquidity: (1n << 100n) + 12345n, sqrtPrice: 7_922_816_251_426_433_759n, tickCurrentIndex: -12_345,
    protocolFeeOwedA: 77n, protocolFeeOwedB: 88n, tokenMintA: KEY2, tokenVaultA: KEY3, feeGrowthGlobalA: (1n << 90n) + 5n,
    tokenMintB: KEY3, tokenVaultB: KEY2, feeGrowthGlobalB: 99n, rewardLastUpdatedTimestamp: 1_760_000_000n,
    reward0Mint: KEY2, reward0Vault: KEY3, reward0Extension: SOME_KEY, reward0EmissionsPerSecondX64: 1n << 70n, reward0GrowthGlobalX64: 3n,
    reward1Mint: ZERO_KEY, reward1Vault: ZERO_KEY, reward1Extension: KEY2, reward1EmissionsPerSecondX64: 0n, reward1GrowthGlobalX64: 4n,
    reward2Mint: KEY3, reward2Vault: ZERO_KEY, reward2Extension: ZERO_KEY, reward2EmissionsPerSecondX64: 5n, reward2GrowthGlobalX64: (1n << 127n) + 1n,
  };
}

function sampleOracle(): OracleFields {
  return {
    whirlpool: SOME_KEY, tradeEnableTimestamp: 1_750_000_000n, filterPeriod: 30, decayPeriod: 600, reductionFactor: 5000,
    adaptiveFeeControlFactor: 4000, maxVolatilityAccumulator: 350_000, tickGroupSize: 16, majorSwapThresholdTicks: 64,
    lastReferenceUpdateTimestamp: 1_760_000_100n, lastMajorSwapTimestamp: 1_760_000_200n, volatilityReference: 1234,
    tickGroupIndexReference: -4321, volatilityAccumulator: 56_789,
  };
}

test('field tables are contiguous where the program packs them and end at the account size', () => {
  const check = (table: readonly { name: string; kind: keyof typeof FIELD_SIZE; offset: number }[], gaps: Record<string, number>, size: number, tail: number): void => {
    for (let i = 1; i < table.length; i++) {
      const prev = table[i - 1]!;
      const expected = prev.offset + FIELD_SIZE[prev.kind] + (gaps[table[i]!.name] ?? 0);
      assert.equal(table[i]!.offset, expected, table[i]!.name);
    }
    const last = table[table.length - 1]!;
    assert.equal(last.offset + FIELD_SIZE[last.kind] + tail, size);
  };
  check(WHIRLPOOL_FIELDS, {}, WHIRLPOOL_SIZE, 0);
  // Oracle: 16 reserved bytes after the constants and after the variables, 128 at the end.
  check(ORACLE_FIELDS, { lastReferenceUpdateTimestamp: 16 }, ORACLE_SIZE, 16 + 128);
});

test('Whirlpool: the SDK decodes what we encode, and we decode what the SDK encodes', () => {
  const ours = sampleWhirlpool();
  const bytes = encodeWhirlpool(ours);
  const sdk = sdkClient().getWhirlpoolDecoder().decode(bytes);
  assert.equal(sdk.whirlpoolsConfig, ours.whirlpoolsConfig);
  assert.equal(sdk.tickSpacing, ours.tickSpacing);
  assert.deepEqual([...sdk.feeTierIndexSeed], [ours.feeTierIndexSeed & 0xff, ours.feeTierIndexSeed >> 8]);
  assert.equal(sdk.feeRate, ours.feeRate);
  assert.equal(sdk.protocolFeeRate, ours.protocolFeeRate);
  assert.equal(sdk.liquidity, ours.liquidity);
  assert.equal(sdk.sqrtPrice, ours.sqrtPrice);
  assert.equal(sdk.tickCurrentIndex, ours.tickCurrentIndex);
  assert.equal(sdk.tokenMintA, ours.tokenMintA);
  assert.equal(sdk.tokenVaultA, ours.tokenVaultA);
  assert.equal(sdk.tokenMintB, ours.tokenMintB);
  assert.equal(sdk.tokenVaultB, ours.tokenVaultB);
  assert.equal(sdk.feeGrowthGlobalB, ours.feeGrowthGlobalB);
  assert.equal(sdk.rewardInfos[2]!.growthGlobalX64, ours.reward2GrowthGlobalX64);
  assert.equal(sdk.rewardInfos[1]!.extension.length, 32);
  const back = sdkClient().getWhirlpoolEncoder().encode(sdk);
  assert.deepEqual(decodeWhirlpool(new Uint8Array(back)), ours);
  assert.deepEqual(new Uint8Array(back), bytes);
});

test('Oracle: the SDK decodes what we encode, and we decode what the SDK encodes', () => {
  const ours = sampleOracle();
  const bytes = encodeOracle(ours);
  const sdk = sdkClient().getOracleDecoder().decode(bytes);
  assert.equal(sdk.whirlpool, ours.whirlpool);
  assert.equal(sdk.tradeEnableTimestamp, ours.tradeEnableTimestamp);
  const { reserved: _r1, ...constants } = sdk.adaptiveFeeConstants;
  const { reserved: _r2, ...variables } = sdk.adaptiveFeeVariables;
  assert.deepEqual(constants, {
    filterPeriod: 30, decayPeriod: 600, reductionFactor: 5000, adaptiveFeeControlFactor: 4000, maxVolatilityAccumulator: 350_000,
    tickGroupSize: 16, majorSwapThresholdTicks: 64,
  });
  assert.deepEqual(variables, {
    lastReferenceUpdateTimestamp: 1_760_000_100n, lastMajorSwapTimestamp: 1_760_000_200n, volatilityReference: 1234,
    tickGroupIndexReference: -4321, volatilityAccumulator: 56_789,
  });
  const back = new Uint8Array(sdkClient().getOracleEncoder().encode(sdk));
  assert.deepEqual(decodeOracle(back), ours);
  assert.deepEqual(back, bytes);
});

function randomTicks(rng: SeededRandom, density: number): TickArrayTicks {
  const bitmap = new Uint32Array(3);
  const liquidityNet = new Array<bigint>(TICK_ARRAY_SIZE).fill(0n);
  for (let i = 0; i < TICK_ARRAY_SIZE; i++) {
    if (rng.float() >= density) continue;
    bitmap[i >> 5] = (bitmap[i >> 5]! | (1 << (i & 31))) >>> 0;
    const mag = rng.magnitude(0, 126);
    liquidityNet[i] = rng.int(2) === 0 ? mag : -mag;
  }
  return { startTickIndex: (rng.int(1001) - 500) * 88 * 8, bitmap, liquidityNet };
}

test('tick arrays: fixed and dynamic accounts encoded by the SDK decode to the same ticks, at every density', () => {
  const rng = new SeededRandom(15);
  for (const density of [0, 0.02, 0.3, 1]) {
    for (let k = 0; k < 6; k++) {
      const a = randomTicks(rng, density);
      for (const dynamic of [false, true]) {
        const bytes = encodeTickArrayWithSdk(a, dynamic, KEY2);
        const d = decodeTickArray(bytes);
        assert.equal(d.format, dynamic ? 'dynamic' : 'fixed');
        assert.equal(d.startTickIndex, a.startTickIndex);
        assert.equal(d.whirlpool, KEY2);
        assert.deepEqual([...d.bitmap], [...a.bitmap]);
        assert.deepEqual(d.liquidityNet, a.liquidityNet);
        if (!dynamic) assert.equal(bytes.length, FIXED_TICK_ARRAY_SIZE);
        else assert.ok(bytes.length >= DYNAMIC_TICK_ARRAY_MIN_SIZE && bytes.length <= DYNAMIC_TICK_ARRAY_MAX_SIZE);
      }
    }
  }
});

test('tick arrays: malformed dynamic arrays are refused, not misread', () => {
  const rng = new SeededRandom(16);
  const a = randomTicks(rng, 0.1);
  const bytes = encodeTickArrayWithSdk(a, true);
  const firstTag = 60;
  const bad = (mutate: (b: Uint8Array) => Uint8Array): void => {
    assert.throws(() => decodeTickArray(mutate(bytes.slice())), (e: Error & { code?: string }) => e.code === 'WHIRLPOOL_BAD_ACCOUNT');
  };
  bad((b) => { b[firstTag] = 2; return b; });
  bad((b) => { b[44] = b[44]! ^ 1; return b; });
  bad((b) => b.slice(0, b.length - 1));
  bad((b) => { const c = new Uint8Array(b.length + 1); c.set(b); return c; });
  assert.throws(() => decodeWhirlpool(new Uint8Array(WHIRLPOOL_SIZE)), (e: Error & { code?: string }) => e.code === 'WHIRLPOOL_BAD_ACCOUNT');
});

test('real mainnet accounts decode to what the SDK decodes from the same bytes', () => {
  const accounts = realWhirlpoolAccounts();
  const c = sdkClient();
  let pools = 0;
  let arrays = 0;
  for (const acc of accounts) {
    if (acc.role === 'pool') {
      const ours = decodeWhirlpool(acc.data);
      const sdk = c.getWhirlpoolDecoder().decode(acc.data);
      assert.equal(ours.tickSpacing, sdk.tickSpacing, acc.set);
      assert.equal(ours.feeTierIndexSeed, sdk.feeTierIndexSeed[0]! | (sdk.feeTierIndexSeed[1]! << 8), acc.set);
      assert.equal(ours.feeRate, sdk.feeRate, acc.set);
      assert.equal(ours.protocolFeeRate, sdk.protocolFeeRate, acc.set);
      assert.equal(ours.liquidity, sdk.liquidity, acc.set);
      assert.equal(ours.sqrtPrice, sdk.sqrtPrice, acc.set);
      assert.equal(ours.tickCurrentIndex, sdk.tickCurrentIndex, acc.set);
      assert.equal(ours.tokenMintA, sdk.tokenMintA, acc.set);
      assert.equal(ours.tokenMintB, sdk.tokenMintB, acc.set);
      assert.equal(ours.tokenVaultA, sdk.tokenVaultA, acc.set);
      assert.equal(ours.tokenVaultB, sdk.tokenVaultB, acc.set);
      assert.ok(ours.sqrtPrice > 0n && ours.liquidity > 0n, `${acc.set}: a live pool`);
      pools++;
    } else if (acc.role === 'tickArray') {
      const ours = decodeTickArray(acc.data);
      const sdk = ours.format === 'fixed' ? c.getFixedTickArrayDecoder().decode(acc.data) : c.getDynamicTickArrayDecoder().decode(acc.data);
      assert.equal(ours.startTickIndex, sdk.startTickIndex, acc.set);
      assert.equal(ours.whirlpool, sdk.whirlpool, acc.set);
      let initialized = 0;
      for (let i = 0; i < TICK_ARRAY_SIZE; i++) {
        const t = sdk.ticks[i]!;
        const sdkInit = 'initialized' in t ? t.initialized : t.__kind === 'Initialized';
        const sdkNet = 'initialized' in t ? t.liquidityNet : t.__kind === 'Initialized' ? t.fields[0].liquidityNet : 0n;
        const oursInit = ((ours.bitmap[i >> 5]! >>> (i & 31)) & 1) === 1;
        assert.equal(oursInit, sdkInit, `${acc.set} tick ${i}`);
        assert.equal(ours.liquidityNet[i], sdkInit ? sdkNet : 0n, `${acc.set} tick ${i}`);
        if (oursInit) initialized++;
      }
      assert.ok(initialized > 0, `${acc.set}: real arrays hold initialized ticks`);
      arrays++;
    }
  }
  assert.ok(pools >= 4 && arrays >= 2, `pools ${pools}, arrays ${arrays}`);
});
