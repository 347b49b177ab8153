/**
 * The quotable state of a PumpSwap pool, built from the pool account and its dependencies as of one slot:
 * GlobalConfig, FeeConfig, base mint, base vault, quote vault (the order of `PoolDescriptor.dependencies`).
 * The fee schedule is resolved here (it depends on the market cap, i.e. on the reserves and the mint supply).
 */
import { MINT_SIZE, TOKEN_ACCOUNT_SIZE, tokenAccountAmount } from '../common/spl-layouts.js';
import type { ChainClock, PoolDescriptor } from '../types.js';
import { ZERO_KEY, readI128 } from '../common/field-table.js';
import { poolMarketCap, resolveFees } from './fee-schedule.js';
import {
  DISABLE_BUY,
  DISABLE_SELL,
  GLOBAL_CONFIG_OFFSET,
  type FeesBps,
  decodeFeeConfig,
  decodePoolAccount,
  isFeeConfigAccount,
  isGlobalConfigAccount,
  isPoolAccount,
} from './layout.js';
import { U64_MAX } from './math.js';
import { pumpPoolAuthority } from './pdas.js';

/** Record status: the pool can trade (each direction may still be disabled by the GlobalConfig flags). */
export const PUMPSWAP_STATUS_OK = 0;
/** Record status: the GlobalConfig disables both buys and sells. */
export const PUMPSWAP_STATUS_DISABLED = 1;
/** Record status: the effective quote reserve is negative or above u64 (the program guarantees neither happens). */
export const PUMPSWAP_STATUS_BAD_RESERVES = 2;
/** Record status: the selected tier schedule is empty (the program and the SDK fail every trade). */
export const PUMPSWAP_STATUS_BAD_FEE_CONFIG = 3;

/** Decoded, quotable state of one PumpSwap pool (A = base, B = quote; aToB = sell). */
export interface PumpswapState {
  readonly status: number;
  /** Base vault amount. */
  readonly baseReserve: bigint;
  /** Effective quote reserve: quote vault + virtual_quote_reserves (clamped to 0..u64 when the status says so). */
  readonly quoteReserve: bigint;
  /** The quote vault's own amount (what sells pay out of). */
  readonly quoteVault: bigint;
  /** Effective rates of this pool's schedule at its current market cap (creator 0 without a coin creator). */
  readonly fees: FeesBps;
  /** GlobalConfig `disable_flags` (bit 3 buy, bit 4 sell). */
  readonly disableFlags: number;
  /** `SCHEDULE_*` of `fee-schedule.ts`. */
  readonly schedule: number;
  readonly tierIndex: number;
}

const feeConfigCache = new WeakMap<Uint8Array, ReturnType<typeof decodeFeeConfig> | null>();

/** The FeeConfig decoded once per account buffer (ingest hands the same buffer until the account changes); null
 * when it is not a valid FeeConfig. Validating and decoding 4 KB per rebuild cost more than the rest of it. */
function feeConfigOf(data: Uint8Array): ReturnType<typeof decodeFeeConfig> | null {
  let v = feeConfigCache.get(data);
  if (v === undefined) {
    v = isFeeConfigAccount(data) ? decodeFeeConfig(data) : null;
    feeConfigCache.set(data, v);
  }
  return v;
}

/** Decoded pool fields and whether the pool is canonical, per pool account version (the pool account rarely
 * changes: reserves live in the vaults, so vault updates rebuild with the same pool data). Decoding every key to
 * base58 and deriving the canonical authority per rebuild cost ~25 µs. */
const poolCache = new WeakMap<Uint8Array, { readonly p: ReturnType<typeof decodePoolAccount>; readonly canonical: boolean }>();

function poolOf(data: Uint8Array): { readonly p: ReturnType<typeof decodePoolAccount>; readonly canonical: boolean } {
  let v = poolCache.get(data);
  if (!v) {
    const p = decodePoolAccount(data);
    v = { p, canonical: p.creator === pumpPoolAuthority(p.baseMint) };
    poolCache.set(data, v);
  }
  return v;
}

function u64At(data: Uint8Array, offset: number): bigint {
  if (offset + 8 > data.length) return 0n;
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(offset, true);
}

/** Record status from the raw inputs. */
export function pumpswapStatus(disableFlags: number, effectiveQuote: bigint): number {
  if ((disableFlags & DISABLE_BUY) !== 0 && (disableFlags & DISABLE_SELL) !== 0) return PUMPSWAP_STATUS_DISABLED;
  if (effectiveQuote < 0n || effectiveQuote > U64_MAX) return PUMPSWAP_STATUS_BAD_RESERVES;
  return PUMPSWAP_STATUS_OK;
}

/**
 * Builds the state. Null while a dependency is missing or is not the expected kind of account. The canonical
 * check (`creator == pumpPoolAuthority(base_mint)`) is memoized per mint.
 */
export function buildPumpswapState(
  pool: PoolDescriptor,
  poolData: Uint8Array,
  deps: ReadonlyMap<string, Uint8Array>,
  _clock: ChainClock,
): PumpswapState | null {
  const [globalKey, feeKey, mintKey, baseVaultKey, quoteVaultKey] = pool.dependencies;
  if (!globalKey || !feeKey || !mintKey || !baseVaultKey || !quoteVaultKey) return null;
  const global = deps.get(globalKey);
  const feeData = deps.get(feeKey);
  const mint = deps.get(mintKey);
  const baseVault = deps.get(baseVaultKey);
  const quoteVault = deps.get(quoteVaultKey);
  if (!global || !feeData || !mint || !baseVault || !quoteVault) return null;
  const feeConfig = feeConfigOf(feeData);
  if (!isPoolAccount(poolData) || !isGlobalConfigAccount(global) || !feeConfig) return null;
  if (mint.length < MINT_SIZE || baseVault.length < TOKEN_ACCOUNT_SIZE || quoteVault.length < TOKEN_ACCOUNT_SIZE) return null;

  const { p, canonical } = poolOf(poolData);
  const baseReserve = tokenAccountAmount(baseVault);
  const vault = tokenAccountAmount(quoteVault);
  // virtual_quote_reserves is a signed i128 (negative while v2 trades keep fees in the vault); 0 on old pools.
  const virtualQuote = poolData.length >= 261 ? readI128(poolData, 245) : 0n;
  const effective = vault + virtualQuote;
  const disableFlags = global[GLOBAL_CONFIG_OFFSET.disableFlags]!;
  const supply = u64At(mint, 36);
  const resolved = resolveFees({
    feeConfig,
    canonical,
    quoteMint: p.quoteMint,
    marketCap: poolMarketCap(effective, baseReserve, supply, p.isMayhemMode),
    creatorFeeConfigurable: global.length > GLOBAL_CONFIG_OFFSET.creatorFeeConfigurable && global[GLOBAL_CONFIG_OFFSET.creatorFeeConfigurable] !== 0,
    poolCreatorFeeBps: p.creatorFeeBps,
    hasCoinCreator: p.coinCreator !== ZERO_KEY,
  });
  let status = pumpswapStatus(disableFlags, effective);
  if (!resolved && status === PUMPSWAP_STATUS_OK) status = PUMPSWAP_STATUS_BAD_FEE_CONFIG;
  const zero: FeesBps = { lpFeeBps: 0n, protocolFeeBps: 0n, creatorFeeBps: 0n };
  return {
    status,
    baseReserve,
    quoteReserve: effective < 0n ? 0n : effective > U64_MAX ? U64_MAX : effective,
    quoteVault: vault,
    fees: resolved?.fees ?? zero,
    disableFlags,
    schedule: resolved?.schedule ?? 0,
    tierIndex: resolved?.tierIndex ?? 0,
  };
}
