import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import bs58 from 'bs58';
import { FIELD_SIZE, type FieldSpec, ZERO_KEY } from '../common/field-table.js';
import {
  FEE_CONFIG_DISCRIMINATOR,
  FEE_CONFIG_SIZE_POST_EXOTIC,
  FEE_CONFIG_SIZE_POST_STABLE,
  FEE_CONFIG_SIZE_PRE_STABLE,
  type FeeConfigFields,
  type FeesBps,
  GLOBAL_CONFIG_DISCRIMINATOR,
  GLOBAL_CONFIG_FIELDS,
  GLOBAL_CONFIG_SIZE,
  type GlobalConfigFields,
  POOL_DISCRIMINATOR,
  POOL_FIELDS,
  POOL_LIVE_SIZES,
  POOL_SIZE,
  type PoolFields,
  decodeFeeConfig,
  decodeGlobalConfig,
  decodePoolAccount,
  encodeFeeConfig,
  encodeGlobalConfig,
  encodePoolAccount,
  isFeeConfigAccount,
  isGlobalConfigAccount,
  isPoolAccount,
} from './layout.js';
import { loadSdk } from './testing/sdk-oracle.js';

const require = createRequire(import.meta.url);
const BN = require('bn.js') as new (v: string) => { toString(): string };
const { PublicKey } = require('@solana/web3.js') as typeof import('@solana/web3.js');
interface AnchorCoder { accounts: { accountLayouts: Map<string, { discriminator: number[]; layout: { encode(o: unknown, b: Buffer): number } }> } }
const coder = (loadSdk().sdk.OFFLINE_PUMP_AMM_PROGRAM as unknown as { coder: AnchorCoder }).coder;
const ai = (data: Uint8Array) => ({ data: Buffer.from(data), executable: false, lamports: 0, owner: PublicKey.default });

/** Anchor's own layout into a right-sized buffer (its `encode()` allocates 1000 bytes). */
function anchorEncode(name: string, obj: unknown): Buffer {
  const entry = coder.accounts.accountLayouts.get(name)!;
  const buf = Buffer.alloc(8192);
  const len = entry.layout.encode(obj, buf);
  return Buffer.concat([Buffer.from(entry.discriminator), buf.subarray(0, len)]);
}

const key = (): string => bs58.encode(randomBytes(32));
const u64 = (): bigint => randomBytes(8).readBigUInt64LE(0);
const i128 = (): bigint => { const b = randomBytes(16); return (b.readBigInt64LE(8) << 64n) | b.readBigUInt64LE(0); };
const u8 = (): number => randomBytes(1)[0]!;

function randomPool(): PoolFields {
  return {
    poolBump: u8(), index: u8() * 256 + u8(), creator: key(), baseMint: key(), quoteMint: key(), lpMint: key(),
    poolBaseTokenAccount: key(), poolQuoteTokenAccount: key(), lpSupply: u64(), coinCreator: key(), isMayhemMode: u8() % 2 === 1,
    isCashbackCoin: u8() % 2 === 1, virtualQuoteReserves: i128(), creatorFeeBps: u64(), canEditCreatorFee: u8() % 2 === 1,
  };
}

function randomGlobal(): GlobalConfigFields {
  const keys = (n: number): string[] => Array.from({ length: n }, key);
  return {
    admin: key(), lpFeeBasisPoints: u64(), protocolFeeBasisPoints: u64(), disableFlags: u8(), protocolFeeRecipients: keys(8),
    coinCreatorFeeBasisPoints: u64(), adminSetCoinCreatorAuthority: key(), whitelistPda: key(), reservedFeeRecipient: key(),
    mayhemModeEnabled: u8() % 2 === 1, reservedFeeRecipients: keys(7), isCashbackEnabled: u8() % 2 === 1, buybackFeeRecipients: keys(8),
    buybackBasisPoints: u64(), boostAuthority: key(), boostEnabled: u8() % 2 === 1, creatorFeeConfigurable: u8() % 2 === 1,
    maxConfigurableCreatorFeeBps: u64(),
  };
}

const fees = (): FeesBps => ({ lpFeeBps: u64(), protocolFeeBps: u64(), creatorFeeBps: u64() });
function randomFeeConfig(n: number, m: number): FeeConfigFields {
  const tiers = (k: number) => Array.from({ length: k }, () => ({ marketCapThreshold: (u64() << 64n) | u64(), fees: fees() }));
  return { bump: u8(), admin: key(), flatFees: fees(), feeTiers: tiers(n), stableFeeTiers: tiers(m), exoticFlatFees: fees() };
}

/** SDK value (PublicKey, BN, number, boolean, arrays, structs) -> our representation. */
function fromSdk(v: unknown): unknown {
  if (v instanceof PublicKey) return v.toBase58();
  if (Array.isArray(v)) return v.map(fromSdk);
  if (typeof v === 'object' && v !== null && 'toArrayLike' in v) return BigInt((v as { toString(): string }).toString());
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fromSdk(x)]));
  return v;
}

function toSdk(v: unknown): unknown {
  if (typeof v === 'bigint') return new BN(v.toString());
  if (typeof v === 'string' && v.length >= 32) return new PublicKey(v);
  if (Array.isArray(v)) return v.map(toSdk);
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toSdk(x)]));
  return v;
}

const feesToSdk = (f: FeesBps) => toSdk(f);
function feeConfigToSdk(f: FeeConfigFields): unknown {
  const tiers = (ts: FeeConfigFields['feeTiers']) => ts.map((t) => ({ marketCapLamportsThreshold: new BN(t.marketCapThreshold.toString()), fees: feesToSdk(t.fees) }));
  return { bump: f.bump, admin: new PublicKey(f.admin), flatFees: feesToSdk(f.flatFees), feeTiers: tiers(f.feeTiers), stableFeeTiers: tiers(f.stableFeeTiers), exoticFlatFees: feesToSdk(f.exoticFlatFees) };
}
function feeConfigFromSdk(o: Record<string, unknown>): FeeConfigFields {
  const x = fromSdk(o) as Record<string, unknown>;
  const tiers = (ts: unknown) => (ts as { marketCapLamportsThreshold: bigint; fees: FeesBps }[]).map((t) => ({ marketCapThreshold: t.marketCapLamportsThreshold, fees: t.fees }));
  return { bump: x.bump as number, admin: x.admin as string, flatFees: x.flatFees as FeesBps, feeTiers: tiers(x.feeTiers), stableFeeTiers: tiers(x.stableFeeTiers), exoticFlatFees: x.exoticFlatFees as FeesBps };
}

/** What the program reads from a pool of `size` bytes: trailing fields it lacks are zero. */
function visible(p: PoolFields, size: number): PoolFields {
  const out = { ...p } as Record<string, unknown>;
  for (const f of POOL_FIELDS) {
    if (f.offset + FIELD_SIZE[f.kind] <= size) continue;
    out[f.name] = f.kind === 'pubkey' ? ZERO_KEY : f.kind === 'bool' ? false : 0n;
  }
  return out as PoolFields;
}

test('field tables are contiguous and end at the current sizes', () => {
  const check = (table: readonly FieldSpec[], size: number): void => {
    let at = 8;
    for (const f of table) {
      assert.equal(f.offset, at, f.name);
      at += FIELD_SIZE[f.kind];
    }
    assert.equal(at, size);
  };
  check(POOL_FIELDS, POOL_SIZE);
  check(GLOBAL_CONFIG_FIELDS, GLOBAL_CONFIG_SIZE);
  const sdk = loadSdk().sdk as unknown as { POOL_SIZE: number; GLOBAL_CONFIG_SIZE: number; FEE_CONFIG_SIZE_POST_EXOTIC: number };
  assert.equal(sdk.POOL_SIZE, POOL_SIZE);
  assert.equal(sdk.GLOBAL_CONFIG_SIZE, GLOBAL_CONFIG_SIZE);
  assert.equal(sdk.FEE_CONFIG_SIZE_POST_EXOTIC, FEE_CONFIG_SIZE_POST_EXOTIC);
});

test('discriminators are the Anchor account hashes', () => {
  const disc = (n: string): Buffer => createHash('sha256').update(`account:${n}`).digest().subarray(0, 8);
  assert.deepEqual(Buffer.from(POOL_DISCRIMINATOR), disc('Pool'));
  assert.deepEqual(Buffer.from(GLOBAL_CONFIG_DISCRIMINATOR), disc('GlobalConfig'));
  assert.deepEqual(Buffer.from(FEE_CONFIG_DISCRIMINATOR), disc('FeeConfig'));
});

test('Pool: the SDK decodes what we encode at every live size, and we decode what Anchor encodes', () => {
  const { PUMP_AMM_SDK } = loadSdk().sdk;
  let checked = 0;
  for (const size of POOL_LIVE_SIZES) {
    for (let i = 0; i < 15; i++) {
      const fields = randomPool();
      const ours = encodePoolAccount(fields, size);
      assert.equal(ours.length, size);
      assert.ok(isPoolAccount(ours));
      const expect = visible(fields, size);
      assert.deepEqual(decodePoolAccount(ours), expect);
      const viaSdk = fromSdk(PUMP_AMM_SDK.decodePool(ai(ours))) as Record<string, unknown>;
      for (const f of POOL_FIELDS) assert.deepEqual(viaSdk[f.name], expect[f.name], `${size}:${f.name}`);
      // Reverse: Anchor's layout of the full struct, cut to the account's size.
      const full = anchorEncode('pool', toSdk(fields));
      assert.equal(full.length, POOL_SIZE);
      const cut = size <= POOL_SIZE ? full.subarray(0, size) : Buffer.concat([full, Buffer.alloc(size - POOL_SIZE)]);
      assert.deepEqual(decodePoolAccount(cut), expect);
      assert.deepEqual(Buffer.from(ours), Buffer.from(cut));
      checked++;
    }
  }
  assert.equal(checked, POOL_LIVE_SIZES.length * 15);
});

test('GlobalConfig: the SDK decodes what we encode (current and older sizes), and the reverse', () => {
  const { PUMP_AMM_SDK } = loadSdk().sdk;
  for (const size of [GLOBAL_CONFIG_SIZE, 940, 907]) {
    for (let i = 0; i < 10; i++) {
      const fields = randomGlobal();
      const ours = encodeGlobalConfig(fields, size);
      assert.ok(isGlobalConfigAccount(ours));
      const mine = decodeGlobalConfig(ours) as Record<string, unknown>;
      const viaSdk = fromSdk(PUMP_AMM_SDK.decodeGlobalConfig(ai(ours))) as Record<string, unknown>;
      for (const f of GLOBAL_CONFIG_FIELDS) {
        assert.deepEqual(viaSdk[f.name], mine[f.name], `${size}:${f.name}`);
        if (f.offset + FIELD_SIZE[f.kind] <= size) assert.deepEqual(mine[f.name], (fields as Record<string, unknown>)[f.name], f.name);
      }
      if (size === GLOBAL_CONFIG_SIZE) {
        const theirs = anchorEncode('globalConfig', toSdk(fields));
        assert.deepEqual(decodeGlobalConfig(theirs), fields);
        assert.deepEqual(Buffer.from(ours), theirs);
      }
    }
  }
});

test('FeeConfig: every version decodes the same through the SDK and through us, and the reverse', () => {
  const { PUMP_AMM_SDK } = loadSdk().sdk;
  for (const size of [FEE_CONFIG_SIZE_PRE_STABLE, FEE_CONFIG_SIZE_POST_STABLE, FEE_CONFIG_SIZE_POST_EXOTIC]) {
    for (const [n, m] of [[1, 0], [3, 2], [25, 25], [0, 0]] as const) {
      const f = randomFeeConfig(n, m);
      const ours = encodeFeeConfig(f, size);
      assert.equal(ours.length, size);
      assert.ok(isFeeConfigAccount(ours));
      const expect: FeeConfigFields = {
        ...f,
        stableFeeTiers: size >= FEE_CONFIG_SIZE_POST_STABLE ? f.stableFeeTiers : [],
        exoticFlatFees: size >= FEE_CONFIG_SIZE_POST_EXOTIC ? f.exoticFlatFees : { lpFeeBps: 0n, protocolFeeBps: 0n, creatorFeeBps: 0n },
      };
      assert.deepEqual(decodeFeeConfig(ours), expect);
      assert.deepEqual(feeConfigFromSdk(PUMP_AMM_SDK.decodeFeeConfig(ai(ours))), expect, `size ${size} tiers ${n}/${m}`);
      // Reverse: Anchor's layout of the full struct, zero-padded to the version's size.
      const theirs = anchorEncode('feeConfig', feeConfigToSdk(expect));
      const padded = Buffer.concat([theirs, Buffer.alloc(Math.max(0, size - theirs.length))]).subarray(0, size);
      assert.deepEqual(decodeFeeConfig(padded), expect);
    }
  }
});

test('decoders reject other accounts; encoders reject out-of-range values', () => {
  const pool = encodePoolAccount(randomPool());
  assert.equal(isGlobalConfigAccount(pool), false);
  assert.throws(() => decodeGlobalConfig(pool), { name: 'EngineError', code: 'PUMPSWAP_BAD_ACCOUNT' });
  const wrong = pool.slice();
  wrong[0] ^= 1;
  assert.equal(isPoolAccount(wrong), false);
  assert.throws(() => decodePoolAccount(pool.subarray(0, 210)), { code: 'PUMPSWAP_BAD_ACCOUNT' });
  assert.throws(() => encodePoolAccount({ ...randomPool(), lpSupply: 1n << 64n }), RangeError);
  assert.throws(() => encodePoolAccount({ ...randomPool(), virtualQuoteReserves: 1n << 127n }), RangeError);
  const fc = encodeFeeConfig(randomFeeConfig(2, 2));
  assert.throws(() => decodeFeeConfig(fc.subarray(0, 2511)), { code: 'PUMPSWAP_BAD_ACCOUNT' });
  // A tier count that runs past the account is refused, as the SDK's versioned reader refuses it.
  const bad = fc.slice();
  new DataView(bad.buffer).setUint32(65, 1000, true);
  assert.equal(isFeeConfigAccount(bad), false);
  assert.throws(() => encodeFeeConfig(randomFeeConfig(62, 0), FEE_CONFIG_SIZE_PRE_STABLE), RangeError);
});
