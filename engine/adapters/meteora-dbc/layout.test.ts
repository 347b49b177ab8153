import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import { FIELD_SIZE, type FieldSpec } from '../common/field-table.js';
import {
  CURVE_OFFSET,
  CURVE_POINTS,
  POOL_CONFIG_DISCRIMINATOR,
  POOL_CONFIG_FIELDS,
  POOL_CONFIG_SIZE,
  type PoolConfigAccount,
  VIRTUAL_POOL_DISCRIMINATOR,
  VIRTUAL_POOL_FIELDS,
  VIRTUAL_POOL_SIZE,
  type VirtualPoolFields,
  decodePoolConfig,
  decodeVirtualPool,
  encodePoolConfig,
  encodeVirtualPool,
  eventAuthority,
  isPoolConfigAccount,
  isVirtualPoolAccount,
  poolAuthority,
} from './layout.js';
import { configFromSdk, configToSdk, loadSdkCoder, poolFromSdk, poolToSdk } from './testing/sdk-coder.js';

function randomValue(f: FieldSpec): unknown {
  switch (f.kind) {
    case 'pubkey': return bs58.encode(randomBytes(32));
    case 'u8': return randomBytes(1)[0]!;
    case 'u16': return randomBytes(2).readUInt16LE(0);
    case 'u32': return randomBytes(4).readUInt32LE(0);
    case 'u64': return randomBytes(8).readBigUInt64LE(0);
    case 'u128': return randomBytes(8).readBigUInt64LE(0) | (randomBytes(8).readBigUInt64LE(0) << 64n);
  }
}

function randomFields<T>(table: readonly FieldSpec[]): T {
  return Object.fromEntries(table.map((f) => [f.name, randomValue(f)])) as T;
}

function randomConfig(): PoolConfigAccount {
  const c = randomFields<PoolConfigAccount>(POOL_CONFIG_FIELDS);
  c.curve = Array.from({ length: CURVE_POINTS }, () => ({ sqrtPrice: randomValue({ name: 's', kind: 'u128', offset: 0 }) as bigint, liquidity: randomValue({ name: 'l', kind: 'u128', offset: 0 }) as bigint }));
  return c;
}

test('field tables are contiguous up to their documented padding', () => {
  const check = (table: readonly FieldSpec[], gaps: Record<number, number>, end: number): void => {
    let at = 8;
    for (const f of table) {
      at += gaps[at] ?? 0;
      assert.equal(f.offset, at, f.name);
      at += FIELD_SIZE[f.kind];
    }
    at += gaps[at] ?? 0;
    assert.equal(at, end);
  };
  check(VIRTUAL_POOL_FIELDS, { 16: 8, 371: 5, 378: 6, 400: 24 }, VIRTUAL_POOL_SIZE);
  check(POOL_CONFIG_FIELDS, { 131: 5, 137: 7, 160: 8, 186: 2, 202: 2, 216: 16, 249: 7, 336: 8, 376: 16 }, CURVE_OFFSET);
  assert.equal(CURVE_OFFSET + 32 * CURVE_POINTS, POOL_CONFIG_SIZE);
});

test('discriminators are the Anchor account hashes; PDAs are the known mainnet ones', () => {
  const disc = (n: string): Buffer => createHash('sha256').update(`account:${n}`).digest().subarray(0, 8);
  assert.deepEqual(Buffer.from(VIRTUAL_POOL_DISCRIMINATOR), disc('VirtualPool'));
  assert.deepEqual(Buffer.from(POOL_CONFIG_DISCRIMINATOR), disc('PoolConfig'));
  // The IDL pins pool_authority to this address.
  assert.equal(poolAuthority(), 'FhVo3mqL8PW5pH5U2CN4XE33DokiyZnUwuGpH2hmHLuM');
  assert.equal(eventAuthority().length > 30, true);
});

test('the SDK coder decodes what encodeVirtualPool writes, and vice versa', () => {
  const coder = loadSdkCoder();
  for (let i = 0; i < 40; i++) {
    const fields = randomFields<VirtualPoolFields>(VIRTUAL_POOL_FIELDS);
    const ours = encodeVirtualPool(fields);
    assert.ok(isVirtualPoolAccount(ours));
    assert.deepEqual(poolFromSdk(coder.decode('virtualPool', ours)), fields);
    const theirs = coder.encode('virtualPool', poolToSdk(fields));
    assert.equal(theirs.length, VIRTUAL_POOL_SIZE);
    assert.deepEqual(decodeVirtualPool(theirs), fields);
    assert.deepEqual(Buffer.from(ours), theirs);
  }
});

test('the SDK coder decodes what encodePoolConfig writes (curve included), and vice versa', () => {
  const coder = loadSdkCoder();
  for (let i = 0; i < 40; i++) {
    const cfg = randomConfig();
    const ours = encodePoolConfig(cfg);
    assert.ok(isPoolConfigAccount(ours));
    assert.deepEqual(configFromSdk(coder.decode('poolConfig', ours)), cfg);
    const theirs = coder.encode('poolConfig', configToSdk(cfg));
    assert.equal(theirs.length, POOL_CONFIG_SIZE);
    assert.deepEqual(decodePoolConfig(theirs), cfg);
    assert.deepEqual(Buffer.from(ours), theirs);
  }
});

test('decoders reject other accounts; encoders reject out-of-range values', () => {
  const pool = encodeVirtualPool(randomFields<VirtualPoolFields>(VIRTUAL_POOL_FIELDS));
  assert.throws(() => decodePoolConfig(pool), { name: 'EngineError', code: 'DBC_BAD_ACCOUNT' });
  const wrong = pool.slice();
  wrong[0] ^= 1;
  assert.equal(isVirtualPoolAccount(wrong), false);
  assert.throws(() => decodeVirtualPool(pool.subarray(0, 423)), { code: 'DBC_BAD_ACCOUNT' });
  assert.throws(() => encodeVirtualPool({ ...randomFields<VirtualPoolFields>(VIRTUAL_POOL_FIELDS), sqrtPrice: 1n << 128n }), RangeError);
  assert.throws(() => encodePoolConfig({ ...randomConfig(), firstFactor: 65_536 }), RangeError);
  assert.throws(() => encodePoolConfig({ ...randomConfig(), curve: new Array(21).fill({ sqrtPrice: 1n, liquidity: 1n }) }), RangeError);
});
