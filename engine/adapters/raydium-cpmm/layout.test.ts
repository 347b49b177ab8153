import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import bs58 from 'bs58';
import { FIELD_SIZE, type FieldSpec } from '../common/field-table.js';
import {
  AMM_CONFIG_DISCRIMINATOR,
  AMM_CONFIG_FIELDS,
  AMM_CONFIG_SIZE,
  type AmmConfigFields,
  POOL_STATE_DISCRIMINATOR,
  POOL_STATE_FIELDS,
  POOL_STATE_SIZE,
  type PoolStateFields,
  decodeAmmConfig,
  decodePoolState,
  encodeAmmConfig,
  encodePoolState,
  isAmmConfigAccount,
  isPoolStateAccount,
  poolAuthority,
} from './layout.js';

const require = createRequire(import.meta.url);
// The SDK is CommonJS and untyped for our purposes; only its layouts are used here.
const sdk = require('@raydium-io/raydium-sdk-v2') as {
  CpmmPoolInfoLayout: SdkLayout;
  CpmmConfigInfoLayout: SdkLayout;
};
const BN = require('bn.js') as new (v: string) => { toString(): string };
const { PublicKey } = require('@solana/web3.js') as typeof import('@solana/web3.js');

interface SdkLayout {
  span: number;
  decode(b: Buffer): Record<string, unknown>;
  encode(v: Record<string, unknown>, b: Buffer): number;
}

/** Our field name -> the SDK's property name. */
const POOL_SDK_NAMES: Record<keyof PoolStateFields, string> = {
  ammConfig: 'configId',
  poolCreator: 'poolCreator',
  token0Vault: 'vaultA',
  token1Vault: 'vaultB',
  lpMint: 'mintLp',
  token0Mint: 'mintA',
  token1Mint: 'mintB',
  token0Program: 'mintProgramA',
  token1Program: 'mintProgramB',
  observationKey: 'observationId',
  authBump: 'bump',
  status: 'status',
  lpMintDecimals: 'lpDecimals',
  mint0Decimals: 'mintDecimalA',
  mint1Decimals: 'mintDecimalB',
  lpSupply: 'lpAmount',
  protocolFeesToken0: 'protocolFeesMintA',
  protocolFeesToken1: 'protocolFeesMintB',
  fundFeesToken0: 'fundFeesMintA',
  fundFeesToken1: 'fundFeesMintB',
  openTime: 'openTime',
  recentEpoch: 'epoch',
  creatorFeeOn: 'feeOn',
  enableCreatorFee: 'enableCreatorFee',
  creatorFeesToken0: 'creatorFeesMintA',
  creatorFeesToken1: 'creatorFeesMintB',
};

const key = (): string => bs58.encode(randomBytes(32));
const u64 = (): bigint => randomBytes(8).readBigUInt64LE(0);
const u8 = (): number => randomBytes(1)[0]!;

function randomPool(): PoolStateFields {
  return {
    ammConfig: key(), poolCreator: key(), token0Vault: key(), token1Vault: key(), lpMint: key(),
    token0Mint: key(), token1Mint: key(), token0Program: key(), token1Program: key(), observationKey: key(),
    authBump: u8(), status: u8(), lpMintDecimals: u8(), mint0Decimals: u8(), mint1Decimals: u8(),
    lpSupply: u64(), protocolFeesToken0: u64(), protocolFeesToken1: u64(), fundFeesToken0: u64(),
    fundFeesToken1: u64(), openTime: u64(), recentEpoch: u64(), creatorFeeOn: u8() % 3,
    enableCreatorFee: u8() % 2 === 1, creatorFeesToken0: u64(), creatorFeesToken1: u64(),
  };
}

function randomConfig(): AmmConfigFields {
  return {
    bump: u8(), disableCreatePool: u8() % 2 === 1, index: u8() * 256 + u8(), tradeFeeRate: u64(),
    protocolFeeRate: u64(), fundFeeRate: u64(), createPoolFee: u64(), protocolOwner: key(), fundOwner: key(),
    creatorFeeRate: u64(), creatorFeeShareRate: u64(),
  };
}

/** SDK value (PublicKey, BN, number, boolean) -> our representation, for comparison. */
function fromSdk(v: unknown): unknown {
  if (v instanceof PublicKey) return v.toBase58();
  if (typeof v === 'object' && v !== null && 'toArrayLike' in v) return BigInt((v as { toString(): string }).toString());
  return v;
}

function toSdk(v: unknown, spec: FieldSpec): unknown {
  if (spec.kind === 'pubkey') return new PublicKey(v as string);
  if (spec.kind === 'u64') return new BN((v as bigint).toString());
  return v;
}

function sdkObject(fields: Record<string, unknown>, table: readonly FieldSpec[], names: Record<string, string>, layout: SdkLayout): Record<string, unknown> {
  // Start from the SDK's own decode of a zero buffer so that its padding arrays are present.
  const o = layout.decode(Buffer.alloc(layout.span));
  for (const f of table) o[names[f.name]!] = toSdk(fields[f.name], f);
  return o;
}

const configNames = Object.fromEntries(AMM_CONFIG_FIELDS.map((f) => [f.name, f.name]));

test('field tables are contiguous up to their documented padding', () => {
  const check = (table: readonly FieldSpec[], gaps: Record<number, number>, size: number): void => {
    let at = 8;
    for (const f of table) {
      at += gaps[at] ?? 0;
      assert.equal(f.offset, at, f.name);
      at += FIELD_SIZE[f.kind];
    }
    at += gaps[at] ?? 0;
    assert.equal(at, size);
  };
  check(POOL_STATE_FIELDS, { 391: 6, 413: 28 * 8 }, POOL_STATE_SIZE);
  check(AMM_CONFIG_FIELDS, { 124: 14 * 8 }, AMM_CONFIG_SIZE);
});

test('discriminators are the Anchor account hashes', () => {
  const disc = (n: string): Buffer => createHash('sha256').update(`account:${n}`).digest().subarray(0, 8);
  assert.deepEqual(Buffer.from(POOL_STATE_DISCRIMINATOR), disc('PoolState'));
  assert.deepEqual(Buffer.from(AMM_CONFIG_DISCRIMINATOR), disc('AmmConfig'));
});

test('SDK CpmmPoolInfoLayout decodes what encodePoolState writes, and vice versa', () => {
  assert.equal(sdk.CpmmPoolInfoLayout.span, POOL_STATE_SIZE);
  for (let i = 0; i < 50; i++) {
    const fields = randomPool();
    const ours = encodePoolState(fields);
    assert.ok(isPoolStateAccount(ours));
    const viaSdk = sdk.CpmmPoolInfoLayout.decode(Buffer.from(ours));
    for (const f of POOL_STATE_FIELDS) assert.deepEqual(fromSdk(viaSdk[POOL_SDK_NAMES[f.name]]), fields[f.name], f.name);

    const buf = Buffer.alloc(POOL_STATE_SIZE);
    sdk.CpmmPoolInfoLayout.encode(sdkObject(fields, POOL_STATE_FIELDS, POOL_SDK_NAMES, sdk.CpmmPoolInfoLayout), buf);
    buf.set(POOL_STATE_DISCRIMINATOR, 0);
    assert.deepEqual(decodePoolState(buf), fields);
    assert.deepEqual(Buffer.from(ours), buf);
  }
});

test('SDK CpmmConfigInfoLayout decodes what encodeAmmConfig writes, and vice versa', () => {
  assert.equal(sdk.CpmmConfigInfoLayout.span, AMM_CONFIG_SIZE);
  for (let i = 0; i < 50; i++) {
    const fields = randomConfig();
    const ours = encodeAmmConfig(fields);
    assert.ok(isAmmConfigAccount(ours));
    const viaSdk = sdk.CpmmConfigInfoLayout.decode(Buffer.from(ours));
    for (const f of AMM_CONFIG_FIELDS) assert.deepEqual(fromSdk(viaSdk[f.name]), fields[f.name], f.name);

    const buf = Buffer.alloc(AMM_CONFIG_SIZE);
    sdk.CpmmConfigInfoLayout.encode(sdkObject(fields, AMM_CONFIG_FIELDS, configNames, sdk.CpmmConfigInfoLayout), buf);
    buf.set(AMM_CONFIG_DISCRIMINATOR, 0);
    assert.deepEqual(decodeAmmConfig(buf), fields);
    assert.deepEqual(Buffer.from(ours), buf);
  }
});

test('decoders reject other accounts; encoders reject out-of-range values', () => {
  const pool = encodePoolState(randomPool());
  assert.throws(() => decodeAmmConfig(pool), { name: 'EngineError', code: 'CPMM_BAD_ACCOUNT' });
  const wrongDisc = pool.slice();
  wrongDisc[0] ^= 1;
  assert.equal(isPoolStateAccount(wrongDisc), false);
  assert.throws(() => decodePoolState(wrongDisc), { code: 'CPMM_BAD_ACCOUNT' });
  assert.throws(() => decodePoolState(pool.subarray(0, 636)), { code: 'CPMM_BAD_ACCOUNT' });
  assert.throws(() => encodePoolState({ ...randomPool(), lpSupply: 1n << 64n }), RangeError);
  assert.throws(() => encodePoolState({ ...randomPool(), status: 256 }), RangeError);
});

test('poolAuthority is the known mainnet CPMM authority', () => {
  // The well-known CPMM authority (visible as owner of every CPMM vault on mainnet).
  assert.equal(poolAuthority(), 'GpMZbSM2GgvTKHJirzeGfMFoaZ8UR2X7F4v8vHTvxFbL');
  assert.equal(poolAuthority(), poolAuthority());
});
