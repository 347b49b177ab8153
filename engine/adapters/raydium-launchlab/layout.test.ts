import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import bs58 from 'bs58';
import { FIELD_SIZE, type FieldSpec } from '../common/field-table.js';
import {
  GLOBAL_CONFIG_DISCRIMINATOR, GLOBAL_CONFIG_FIELDS, GLOBAL_CONFIG_SIZE, type GlobalConfigFields,
  type LaunchlabPoolFields, PLATFORM_CONFIG_DISCRIMINATOR, PLATFORM_CONFIG_FIELDS, PLATFORM_CONFIG_SIZE,
  POOL_STATE_DISCRIMINATOR, POOL_STATE_FIELDS, POOL_STATE_SIZE, type PlatformConfigFields,
  decodeGlobalConfig, decodeLaunchlabPool, decodePlatformConfig, encodeGlobalConfig, encodeLaunchlabPool,
  encodePlatformConfig, isLaunchlabPoolAccount, isPlatformConfigAccount,
} from './layout.js';
import {
  creatorFeeVault, creatorFeeVaultAuthority, globalConfigAddress, launchlabAuthority, launchlabEventAuthority,
  launchlabPoolAddress, launchlabVaultAddress, platformFeeVault, platformFeeVaultAuthority,
} from './pda.js';

const require = createRequire(import.meta.url);
interface SdkLayout { span: number; decode(b: Buffer): Record<string, unknown>; encode(v: Record<string, unknown>, b: Buffer): number }
const sdk = require('@raydium-io/raydium-sdk-v2') as Record<string, unknown> & {
  LaunchpadPool: SdkLayout; LaunchpadConfig: SdkLayout; PlatformConfig: SdkLayout; LAUNCHPAD_PROGRAM: unknown;
};
const BN = require('bn.js') as new (v: string) => { toString(): string };
const { PublicKey } = require('@solana/web3.js') as typeof import('@solana/web3.js');

/** Our field name -> the SDK's property path. */
const POOL_SDK: Record<keyof LaunchlabPoolFields, string> = {
  epoch: 'epoch', bump: 'bump', status: 'status', mintDecimalsA: 'mintDecimalsA', mintDecimalsB: 'mintDecimalsB',
  migrateType: 'migrateType', supply: 'supply', totalSellA: 'totalSellA', virtualA: 'virtualA', virtualB: 'virtualB',
  realA: 'realA', realB: 'realB', totalFundRaisingB: 'totalFundRaisingB', protocolFee: 'protocolFee',
  platformFee: 'platformFee', migrateFee: 'migrateFee', vestingTotalLockedAmount: 'vestingSchedule.totalLockedAmount',
  vestingCliffPeriod: 'vestingSchedule.cliffPeriod', vestingUnlockPeriod: 'vestingSchedule.unlockPeriod',
  vestingStartTime: 'vestingSchedule.startTime', vestingAllocatedShareAmount: 'vestingSchedule.totalAllocatedShare',
  globalConfig: 'configId', platformConfig: 'platformId', mintA: 'mintA', mintB: 'mintB', vaultA: 'vaultA',
  vaultB: 'vaultB', creator: 'creator', mintProgramFlag: 'mintProgramFlag', cpmmCreatorFeeOn: 'cpmmCreatorFeeOn',
  platformVestingShare: 'platformVestingShare',
};

const key = (): string => bs58.encode(randomBytes(32));
const u64 = (): bigint => randomBytes(8).readBigUInt64LE(0);
const u8 = (): number => randomBytes(1)[0]!;
const u16 = (): number => randomBytes(2).readUInt16LE(0);

function random(table: readonly FieldSpec[]): Record<string, unknown> {
  const gen: Partial<Record<FieldSpec['kind'], () => unknown>> = { pubkey: key, u8, bool: () => u8() % 2 === 1, u16, u64 };
  return Object.fromEntries(table.map((f) => {
    const g = gen[f.kind];
    if (!g) throw new Error(`no generator for ${f.kind} (LaunchLab tables use none)`);
    return [f.name, g()];
  }));
}

function get(o: Record<string, unknown>, path: string): unknown {
  return path.split('.').reduce<unknown>((x, p) => (x as Record<string, unknown>)[p], o);
}
function set(o: Record<string, unknown>, path: string, v: unknown): void {
  const parts = path.split('.');
  const last = parts.pop()!;
  (parts.reduce<unknown>((x, p) => (x as Record<string, unknown>)[p], o) as Record<string, unknown>)[last] = v;
}
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

function roundTrip<T extends Record<string, unknown>>(
  table: readonly FieldSpec[], names: Record<string, string>, layout: SdkLayout, size: number, disc: Uint8Array,
  encode: (f: T) => Uint8Array, decode: (d: Uint8Array) => T,
): void {
  assert.equal(layout.span, size);
  for (let i = 0; i < 40; i++) {
    const fields = random(table) as T;
    const ours = encode(fields);
    const viaSdk = layout.decode(Buffer.from(ours));
    for (const f of table) assert.deepEqual(fromSdk(get(viaSdk, names[f.name]!)), fields[f.name], f.name);
    const o = layout.decode(Buffer.alloc(layout.span));
    for (const f of table) set(o, names[f.name]!, toSdk(fields[f.name], f));
    const buf = Buffer.alloc(size);
    layout.encode(o, buf);
    buf.set(disc, 0);
    assert.deepEqual(decode(buf), fields);
    assert.deepEqual(Buffer.from(ours), buf);
  }
}

const same = (t: readonly FieldSpec[]): Record<string, string> => Object.fromEntries(t.map((f) => [f.name, f.name]));

test('field tables are contiguous up to their documented gaps', () => {
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
  check(POOL_STATE_FIELDS, { 375: 54 }, POOL_STATE_SIZE);
  check(GLOBAL_CONFIG_FIELDS, { 243: 128 }, GLOBAL_CONFIG_SIZE);
  check(PLATFORM_CONFIG_FIELDS, { 112: 576, 866: 78 }, PLATFORM_CONFIG_SIZE);
});

test('discriminators are the Anchor account hashes', () => {
  const disc = (n: string): Buffer => createHash('sha256').update(`account:${n}`).digest().subarray(0, 8);
  assert.deepEqual(Buffer.from(POOL_STATE_DISCRIMINATOR), disc('PoolState'));
  assert.deepEqual(Buffer.from(GLOBAL_CONFIG_DISCRIMINATOR), disc('GlobalConfig'));
  assert.deepEqual(Buffer.from(PLATFORM_CONFIG_DISCRIMINATOR), disc('PlatformConfig'));
});

test('SDK LaunchpadPool decodes what we encode, and the reverse', () => {
  roundTrip<LaunchlabPoolFields>(POOL_STATE_FIELDS, POOL_SDK, sdk.LaunchpadPool, POOL_STATE_SIZE, POOL_STATE_DISCRIMINATOR, encodeLaunchlabPool, decodeLaunchlabPool);
});

test('SDK LaunchpadConfig decodes what we encode, and the reverse', () => {
  roundTrip<GlobalConfigFields>(GLOBAL_CONFIG_FIELDS, same(GLOBAL_CONFIG_FIELDS), sdk.LaunchpadConfig, GLOBAL_CONFIG_SIZE, GLOBAL_CONFIG_DISCRIMINATOR, encodeGlobalConfig, decodeGlobalConfig);
});

test('SDK PlatformConfig decodes what we encode, and the reverse', () => {
  roundTrip<PlatformConfigFields>(PLATFORM_CONFIG_FIELDS, same(PLATFORM_CONFIG_FIELDS), sdk.PlatformConfig, PLATFORM_CONFIG_SIZE, PLATFORM_CONFIG_DISCRIMINATOR, encodePlatformConfig, decodePlatformConfig);
});

test('size gates: exact pool and config sizes; a PlatformConfig may be longer (or shorter down to fee_rate)', () => {
  const pool = encodeLaunchlabPool(random(POOL_STATE_FIELDS) as LaunchlabPoolFields);
  assert.ok(isLaunchlabPoolAccount(pool));
  assert.equal(isLaunchlabPoolAccount(pool.subarray(0, 428)), false);
  const wrong = pool.slice();
  wrong[0] ^= 1;
  assert.equal(isLaunchlabPoolAccount(wrong), false);
  assert.throws(() => decodeLaunchlabPool(wrong), { name: 'EngineError', code: 'LAUNCHLAB_BAD_ACCOUNT' });
  assert.throws(() => decodeGlobalConfig(pool), { code: 'LAUNCHLAB_BAD_ACCOUNT' });
  const platform = encodePlatformConfig(random(PLATFORM_CONFIG_FIELDS) as PlatformConfigFields);
  const grown = new Uint8Array(1200);
  grown.set(platform);
  assert.ok(isPlatformConfigAccount(grown));
  assert.deepEqual(decodePlatformConfig(grown), decodePlatformConfig(platform));
  assert.ok(isPlatformConfigAccount(platform.subarray(0, 112)));
  assert.equal(isPlatformConfigAccount(platform.subarray(0, 111)), false);
  assert.throws(() => encodeLaunchlabPool({ ...(random(POOL_STATE_FIELDS) as LaunchlabPoolFields), realA: 1n << 64n }), RangeError);
});

test('PDAs equal the SDK helpers and the known mainnet addresses', () => {
  const s = sdk as unknown as Record<string, (...a: unknown[]) => { publicKey: { toBase58(): string } }>;
  const prog = sdk.LAUNCHPAD_PROGRAM;
  assert.equal(launchlabAuthority()[0], 'WLHv2UAZm6z4KyaaELi5pjdbJh6RESMva1Rnn8pJVVh');
  assert.equal(launchlabAuthority()[0], s.getPdaLaunchpadAuth!(prog).publicKey.toBase58());
  assert.equal(launchlabEventAuthority(), s.getPdaCpiEvent!(prog).publicKey.toBase58());
  assert.equal(platformFeeVaultAuthority(), s.getPdaPlatformFeeVaultAuth!(prog).publicKey.toBase58());
  assert.equal(creatorFeeVaultAuthority(), s.getPdaCreatorFeeVaultAuth!(prog).publicKey.toBase58());
  const wsol = 'So11111111111111111111111111111111111111112';
  assert.equal(globalConfigAddress(wsol, 0, 0), '6s1xP3hpbAfFoNtUNF8mfHsjr2Bd97JxFJRWLbL6aHuX');
  for (const [c, i] of [[1, 0], [2, 3]] as const) {
    assert.equal(globalConfigAddress(wsol, c, i), s.getPdaLaunchpadConfigId!(prog, new PublicKey(wsol), c, i).publicKey.toBase58());
  }
  const [a, b, p, cr] = [key(), key(), key(), key()];
  const pool = launchlabPoolAddress(a, b);
  assert.equal(pool, s.getPdaLaunchpadPoolId!(prog, new PublicKey(a), new PublicKey(b)).publicKey.toBase58());
  assert.equal(launchlabVaultAddress(pool, a), s.getPdaLaunchpadVaultId!(prog, new PublicKey(pool), new PublicKey(a)).publicKey.toBase58());
  assert.equal(platformFeeVault(p, b), s.getPdaPlatformVault!(prog, new PublicKey(p), new PublicKey(b)).publicKey.toBase58());
  assert.equal(creatorFeeVault(cr, b), s.getPdaCreatorVault!(prog, new PublicKey(cr), new PublicKey(b)).publicKey.toBase58());
});
