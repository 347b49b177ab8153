import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import bs58 from 'bs58';
import { FIELD_SIZE } from '../common/field-table.js';
import {
  AMM_INFO_FIELDS,
  AMM_INFO_SIZE,
  type AmmInfoFields,
  ammAuthority,
  canonicalAmmAuthority,
  decodeAmmInfo,
  encodeAmmInfo,
  isAmmInfoAccount,
} from './layout.js';
import { loadAmmV4Sdk } from './testing/sdk-oracle.js';

const require = createRequire(import.meta.url);
const BN = require('bn.js') as new (v: string) => { toString(): string };
const { PublicKey } = require('@solana/web3.js') as typeof import('@solana/web3.js');

/** Our field name -> the SDK's property name (the SDK keeps the legacy base/quote names). */
const SDK_NAMES: Record<keyof AmmInfoFields, string> = {
  status: 'status', nonce: 'nonce', orderNum: 'maxOrder', depth: 'depth', coinDecimals: 'baseDecimal',
  pcDecimals: 'quoteDecimal', state: 'state', resetFlag: 'resetFlag', minSize: 'minSize', volMaxCutRatio: 'volMaxCutRatio',
  amountWave: 'amountWaveRatio', coinLotSize: 'baseLotSize', pcLotSize: 'quoteLotSize', minPriceMultiplier: 'minPriceMultiplier',
  maxPriceMultiplier: 'maxPriceMultiplier', sysDecimalValue: 'systemDecimalValue', minSeparateNumerator: 'minSeparateNumerator',
  minSeparateDenominator: 'minSeparateDenominator', tradeFeeNumerator: 'tradeFeeNumerator', tradeFeeDenominator: 'tradeFeeDenominator',
  pnlNumerator: 'pnlNumerator', pnlDenominator: 'pnlDenominator', swapFeeNumerator: 'swapFeeNumerator',
  swapFeeDenominator: 'swapFeeDenominator', needTakePnlCoin: 'baseNeedTakePnl', needTakePnlPc: 'quoteNeedTakePnl',
  totalPnlPc: 'quoteTotalPnl', totalPnlCoin: 'baseTotalPnl', poolOpenTime: 'poolOpenTime', orderbookToInitTime: 'orderbookToInitTime',
  swapCoinInAmount: 'swapBaseInAmount', swapPcOutAmount: 'swapQuoteOutAmount', swapAccPcFee: 'swapBase2QuoteFee',
  swapPcInAmount: 'swapQuoteInAmount', swapCoinOutAmount: 'swapBaseOutAmount', swapAccCoinFee: 'swapQuote2BaseFee',
  coinVault: 'baseVault', pcVault: 'quoteVault', coinVaultMint: 'baseMint', pcVaultMint: 'quoteMint', lpMint: 'lpMint',
  openOrders: 'openOrders', market: 'marketId', marketProgram: 'marketProgramId', targetOrders: 'targetOrders',
  ammOwner: 'owner', lpAmount: 'lpReserve',
  // The SDK folds client_order_id, recent_epoch and padding2 into `padding: [u64; 3]`.
  clientOrderId: 'padding[0]', recentEpoch: 'padding[1]',
};

const key = (): string => bs58.encode(randomBytes(32));
const u64 = (): bigint => randomBytes(8).readBigUInt64LE(0);
const u128 = (): bigint => (u64() << 64n) | u64();

function randomAmmInfo(): AmmInfoFields {
  const out: Record<string, unknown> = {};
  for (const f of AMM_INFO_FIELDS) out[f.name] = f.kind === 'pubkey' ? key() : f.kind === 'u128' ? u128() : u64();
  return out as AmmInfoFields;
}

function sdkGet(o: Record<string, unknown>, name: string): unknown {
  const m = /^padding\[(\d)\]$/.exec(name);
  return m ? (o.padding as unknown[])[Number(m[1])] : o[name];
}

function fromSdk(v: unknown): unknown {
  if (v instanceof PublicKey) return v.toBase58();
  if (typeof v === 'object' && v !== null && 'toArrayLike' in v) return BigInt((v as { toString(): string }).toString());
  return v;
}

test('the field table is contiguous up to the documented padding and spans 752 bytes', () => {
  const gaps: Record<number, number> = { 232: 16, 624: 64, 744: 8 };
  let at = 0;
  for (const f of AMM_INFO_FIELDS) {
    at += gaps[at] ?? 0;
    assert.equal(f.offset, at, f.name);
    at += FIELD_SIZE[f.kind];
  }
  at += gaps[at] ?? 0;
  assert.equal(at, AMM_INFO_SIZE);
});

test('every field sits where the SDK liquidityStateV4Layout puts it', () => {
  const L = loadAmmV4Sdk().liquidityStateV4Layout;
  assert.equal(L.span, AMM_INFO_SIZE);
  for (const f of AMM_INFO_FIELDS) {
    const name = SDK_NAMES[f.name];
    const off = name.startsWith('padding[') ? L.offsetOf('padding') + 8 * Number(name[8]) : L.offsetOf(name);
    assert.equal(off, f.offset, f.name);
  }
});

test('SDK liquidityStateV4Layout decodes what encodeAmmInfo writes, and vice versa', () => {
  const L = loadAmmV4Sdk().liquidityStateV4Layout;
  for (let i = 0; i < 50; i++) {
    const fields = randomAmmInfo();
    const ours = encodeAmmInfo(fields);
    assert.ok(isAmmInfoAccount(ours));
    const viaSdk = L.decode(Buffer.from(ours));
    for (const f of AMM_INFO_FIELDS) assert.deepEqual(fromSdk(sdkGet(viaSdk, SDK_NAMES[f.name])), fields[f.name], f.name);

    // The reverse: the SDK encodes (its padding words zero), we decode.
    const o = L.decode(Buffer.alloc(L.span));
    for (const f of AMM_INFO_FIELDS) {
      const v = f.kind === 'pubkey' ? new PublicKey(fields[f.name] as string) : new BN((fields[f.name] as bigint).toString());
      const name = SDK_NAMES[f.name];
      const m = /^padding\[(\d)\]$/.exec(name);
      if (m) (o.padding as unknown[])[Number(m[1])] = v;
      else o[name] = v;
    }
    const buf = Buffer.alloc(AMM_INFO_SIZE);
    L.encode(o, buf);
    assert.deepEqual(decodeAmmInfo(buf), fields);
    assert.deepEqual(Buffer.from(ours), buf);
  }
});

test('decoders reject other sizes; encoders reject out-of-range values', () => {
  const pool = encodeAmmInfo(randomAmmInfo());
  assert.equal(isAmmInfoAccount(pool.subarray(0, 751)), false);
  assert.throws(() => decodeAmmInfo(new Uint8Array(2208)), { name: 'EngineError', code: 'AMM_V4_BAD_ACCOUNT' });
  assert.throws(() => encodeAmmInfo({ ...randomAmmInfo(), status: 1n << 64n }), RangeError);
  assert.throws(() => encodeAmmInfo({ ...randomAmmInfo(), swapCoinInAmount: 1n << 128n }), RangeError);
});

test('the authority PDA is the known mainnet AMM v4 authority (nonce 254)', () => {
  assert.deepEqual(canonicalAmmAuthority(), { address: '5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1', nonce: 254 });
  assert.equal(ammAuthority(254), '5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1');
  assert.equal(ammAuthority(254), ammAuthority(254));
  assert.notEqual(ammAuthority(253), '5Q544fKrFoe6tsEbD7S8EmxGTJYAKtTVhAW5Q5pge4j1');
});
