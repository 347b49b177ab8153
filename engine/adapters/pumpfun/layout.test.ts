import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import { FIELD_SIZE } from '../common/field-table.js';
import {
  FEE_CONFIG_CURRENT_SIZE,
  FEE_CONFIG_DISCRIMINATOR,
  FEE_CONFIG_INITIALIZE_SIZE,
  FEE_CONFIG_POST_STABLE_SIZE,
  type FeeConfigFields,
  type FeeSchedule,
  decodeFeeConfig,
  encodeFeeConfig,
  isFeeConfigAccount,
} from './fee-config.js';
import { NATIVE_MINT_2022 } from './fees.js';
import {
  BONDING_CURVE_DISCRIMINATOR,
  BONDING_CURVE_FIELDS,
  BONDING_CURVE_SIZE,
  BONDING_CURVE_SIZES,
  type BondingCurveFields,
  GLOBAL_ARRAYS,
  GLOBAL_DISCRIMINATOR,
  GLOBAL_FIELDS,
  GLOBAL_SIZE,
  type GlobalFields,
  ZERO_KEY,
  decodeBondingCurve,
  decodeGlobal,
  encodeBondingCurve,
  encodeGlobal,
  isBondingCurveAccount,
} from './layout.js';
import { feeConfigAddress, globalAddress } from './pda.js';
import { loadPumpSdk, pk } from './testing/sdk-oracle.js';

const key = (): string => bs58.encode(randomBytes(32));
const u64 = (): bigint => randomBytes(8).readBigUInt64LE(0);
const bool = (): boolean => randomBytes(1)[0]! % 2 === 1;
const ai = (data: Uint8Array) => ({ data: Buffer.from(data), executable: false, lamports: 0, owner: pk(ZERO_KEY) });

interface AnchorCoder {
  accounts: { accountLayouts: Map<string, { discriminator: number[]; layout: { encode(o: unknown, b: Buffer): number } }> };
}
/** The SDK's offline Anchor programs (private fields of PumpSdk, present at run time). */
function coders(): { pump: AnchorCoder; fees: AnchorCoder } {
  const sdk = loadPumpSdk().sdk.PUMP_SDK as unknown as { offlinePumpProgram: { coder: AnchorCoder }; offlinePumpFeeProgram: { coder: AnchorCoder } };
  return { pump: sdk.offlinePumpProgram.coder, fees: sdk.offlinePumpFeeProgram.coder };
}
/** Anchor encoding into a right-sized buffer (`BorshAccountsCoder.encode` overflows above ~1 KB). */
function anchorEncode(coder: AnchorCoder, name: string, obj: unknown): Buffer {
  const entry = coder.accounts.accountLayouts.get(name)!;
  const buf = Buffer.alloc(20_000);
  const len = entry.layout.encode(obj, buf);
  return Buffer.concat([Buffer.from(entry.discriminator), buf.subarray(0, len)]);
}

/** SDK values (PublicKey, BN, arrays, objects) -> ours (base58, bigint), recursively. */
function fromSdk(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(fromSdk);
  if (typeof v === 'object' && v !== null) {
    if ('toBase58' in v) return (v as { toBase58(): string }).toBase58();
    if ('toArrayLike' in v) return BigInt((v as { toString(): string }).toString());
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k === 'marketCapLamportsThreshold' ? 'marketCapThreshold' : k, fromSdk(x)]));
  }
  return v;
}

/** Ours -> SDK values. */
function toSdk(v: unknown): unknown {
  const { BN } = loadPumpSdk();
  if (Array.isArray(v)) return v.map(toSdk);
  if (typeof v === 'bigint') return new BN(v.toString());
  if (typeof v === 'string') return pk(v);
  if (typeof v === 'object' && v !== null) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k === 'marketCapThreshold' ? 'marketCapLamportsThreshold' : k, toSdk(x)]));
  }
  return v;
}

/** Random curve fields that fit a `size`-byte layout (the fields it lacks are zero). */
function randomCurve(size: number): BondingCurveFields {
  const has = (o: number): boolean => size > o;
  return {
    virtualTokenReserves: u64(), virtualQuoteReserves: u64(), realTokenReserves: u64(), realQuoteReserves: u64(),
    tokenTotalSupply: u64(), complete: bool(), creator: has(49) ? key() : ZERO_KEY, isMayhemMode: has(81) && bool(),
    isCashbackCoin: has(82) && bool(), quoteMint: has(83) ? key() : ZERO_KEY, creatorFeeBps: has(115) ? u64() : 0n,
    canEditCreatorFee: has(123) && bool(), isHolderReward: has(124) && bool(),
  };
}

function randomGlobal(): GlobalFields {
  const g: Record<string, unknown> = {};
  for (const f of GLOBAL_FIELDS) g[f.name] = f.kind === 'pubkey' ? key() : f.kind === 'bool' ? bool() : u64();
  for (const a of GLOBAL_ARRAYS) g[a.name] = Array.from({ length: a.length }, key);
  return g as GlobalFields;
}

const fees = (): FeeSchedule => ({ lpFeeBps: u64(), protocolFeeBps: u64(), creatorFeeBps: u64() });
function randomFeeConfig(size: number): FeeConfigFields {
  const tiers = (n: number) => Array.from({ length: n }, () => ({ marketCapThreshold: u64() | (u64() << 64n), fees: fees() }));
  return {
    bump: randomBytes(1)[0]!, admin: key(), flatFees: fees(), feeTiers: tiers(1 + (randomBytes(1)[0]! % 50)),
    stableFeeTiers: size >= FEE_CONFIG_POST_STABLE_SIZE ? tiers(randomBytes(1)[0]! % 10) : [],
    exoticFlatFees: size >= FEE_CONFIG_CURRENT_SIZE ? fees() : { lpFeeBps: 0n, protocolFeeBps: 0n, creatorFeeBps: 0n },
  };
}

test('field tables are contiguous', () => {
  let at = 8;
  for (const f of BONDING_CURVE_FIELDS) {
    assert.equal(f.offset, at, f.name);
    at += FIELD_SIZE[f.kind];
  }
  assert.equal(at, BONDING_CURVE_SIZE);
  const rows = [...GLOBAL_FIELDS.map((f) => ({ name: f.name as string, offset: f.offset, size: FIELD_SIZE[f.kind] })),
    ...GLOBAL_ARRAYS.map((a) => ({ name: a.name as string, offset: a.offset, size: 32 * a.length }))].sort((a, b) => a.offset - b.offset);
  at = 8;
  for (const r of rows) {
    assert.equal(r.offset, at, r.name);
    at += r.size;
  }
  assert.equal(at, GLOBAL_SIZE);
});

test('discriminators are the Anchor account hashes; PDAs are the mainnet ones', () => {
  const disc = (n: string): Buffer => createHash('sha256').update(`account:${n}`).digest().subarray(0, 8);
  assert.deepEqual(Buffer.from(BONDING_CURVE_DISCRIMINATOR), disc('BondingCurve'));
  assert.deepEqual(Buffer.from(GLOBAL_DISCRIMINATOR), disc('Global'));
  assert.deepEqual(Buffer.from(FEE_CONFIG_DISCRIMINATOR), disc('FeeConfig'));
  assert.equal(globalAddress(), '4wTV1YmiEkRvAtNtsSGPtUrqRYQMe5SKy2uB4Jjaxnjf');
  assert.equal(feeConfigAddress(), '8Wf5TiAheLUqBrKXeYg2JtAFFMWtKdG2BSFgqUcPVwTt');
  const solLike = (loadPumpSdk().sdk as unknown as { SOL_LIKE_QUOTE_MINTS: { toBase58(): string }[] }).SOL_LIKE_QUOTE_MINTS.map((k) => k.toBase58());
  assert.ok(solLike.includes(NATIVE_MINT_2022));
});

test('BondingCurve: the SDK decodes what we encode, and we decode what Anchor encodes, in every size', () => {
  const { sdk } = loadPumpSdk();
  const { pump } = coders();
  for (const size of BONDING_CURVE_SIZES) {
    for (let i = 0; i < 30; i++) {
      const fields = randomCurve(size);
      const ours = encodeBondingCurve(fields, size);
      assert.equal(ours.length, size);
      assert.ok(isBondingCurveAccount(ours));
      assert.deepEqual(fromSdk(sdk.PUMP_SDK.decodeBondingCurve(ai(ours))), fields, `size ${size}`);
      assert.deepEqual(decodeBondingCurve(ours), fields);
      const theirs = anchorEncode(pump, 'bondingCurve', toSdk(fields));
      assert.equal(theirs.length, BONDING_CURVE_SIZE);
      const sized = size <= BONDING_CURVE_SIZE ? theirs.subarray(0, size) : Buffer.concat([theirs, Buffer.alloc(size - BONDING_CURVE_SIZE)]);
      assert.deepEqual(decodeBondingCurve(sized), fields);
      assert.deepEqual(Buffer.from(ours), sized);
    }
  }
});

test('Global: the SDK decodes what we encode (full and live lengths), and we decode what Anchor encodes', () => {
  const { sdk } = loadPumpSdk();
  const { pump } = coders();
  for (let i = 0; i < 30; i++) {
    const fields = randomGlobal();
    const ours = encodeGlobal(fields);
    assert.deepEqual(fromSdk(sdk.PUMP_SDK.decodeGlobal(ai(ours))), fields);
    const theirs = anchorEncode(pump, 'global', toSdk(fields));
    assert.deepEqual(Buffer.from(ours), theirs);
    assert.deepEqual(decodeGlobal(theirs), fields);
    // The live 1045-byte account: the fields past it read as zero on both sides.
    const short = encodeGlobal(fields, 1045);
    const expected = { ...fields, creatorFeeConfigurable: false, maxConfigurableCreatorFeeBps: 0n, holderRewardClaimAuthority: ZERO_KEY, isHolderRewardEnabled: false };
    assert.deepEqual(decodeGlobal(short), expected);
    assert.deepEqual(fromSdk(sdk.PUMP_SDK.decodeGlobal(ai(short))), expected);
  }
});

test('FeeConfig: the SDK decodes what we encode in each version, and we decode what Anchor encodes', () => {
  const { sdk } = loadPumpSdk();
  const { fees: coder } = coders();
  for (const size of [FEE_CONFIG_INITIALIZE_SIZE, FEE_CONFIG_POST_STABLE_SIZE, FEE_CONFIG_CURRENT_SIZE]) {
    for (let i = 0; i < 20; i++) {
      const fields = randomFeeConfig(size);
      const ours = encodeFeeConfig(fields, size);
      assert.equal(ours.length, size);
      assert.ok(isFeeConfigAccount(ours));
      const viaSdk = fromSdk(sdk.PUMP_SDK.decodeFeeConfig(ai(ours))) as Record<string, unknown>;
      assert.deepEqual(viaSdk, { ...fields, bump: viaSdk['bump'] });
      assert.equal(viaSdk['bump'], fields.bump);
      assert.deepEqual(decodeFeeConfig(ours), fields);
      // Anchor writes every field (the current layout); a shorter version reads its prefix only.
      const theirs = anchorEncode(coder, 'feeConfig', toSdk({ ...fields, bump: fields.bump }));
      const account = Buffer.concat([theirs, Buffer.alloc(Math.max(0, size - theirs.length))]).subarray(0, Math.max(size, theirs.length));
      if (account.length === size) assert.deepEqual(decodeFeeConfig(account), fields);
    }
  }
});

test('decoders reject other accounts; encoders reject values that do not fit', () => {
  const curve = encodeBondingCurve(randomCurve(125));
  assert.equal(isBondingCurveAccount(curve.subarray(0, 100)), false, 'a length the program never writes');
  assert.throws(() => decodeBondingCurve(curve.subarray(0, 48)), { name: 'EngineError', code: 'PUMPFUN_BAD_ACCOUNT' });
  const wrong = curve.slice();
  wrong[0] ^= 1;
  assert.throws(() => decodeBondingCurve(wrong), { code: 'PUMPFUN_BAD_ACCOUNT' });
  assert.throws(() => decodeGlobal(curve), { code: 'PUMPFUN_BAD_ACCOUNT' });
  assert.throws(() => encodeBondingCurve(randomCurve(125), 81), RangeError, 'quote mint does not fit 81 bytes');
  assert.throws(() => encodeBondingCurve(randomCurve(125), 100), RangeError);
  const fc = encodeFeeConfig(randomFeeConfig(FEE_CONFIG_CURRENT_SIZE));
  const bad = fc.slice();
  new DataView(bad.buffer).setUint32(65, 51, true);
  assert.equal(isFeeConfigAccount(bad), false, 'more than 50 tiers');
  assert.throws(() => decodeFeeConfig(bad), { code: 'PUMPFUN_BAD_ACCOUNT' });
  assert.throws(() => decodeFeeConfig(fc.subarray(0, 2511)), { code: 'PUMPFUN_BAD_ACCOUNT' });
});
