/**
 * The pump-fees program's FeeConfig (PDA ["fee_config", pump program id]): flat fees, market-cap fee tiers for
 * SOL quotes, stable-quote tiers and the exotic flat fees, in its three length-selected versions (2512, 4073,
 * 4097 B; every version a prefix of the next). Mirrors `PumpSdk.decodeFeeConfig` (pump-fees
 * `FeeConfig::deserialize_versioned`): bytes past the version's last field are never read.
 */
import { EngineError } from '../../errors.js';
import bs58 from 'bs58';
import { hasDiscriminator } from './layout.js';

/** Anchor discriminator of FeeConfig: sha256("account:FeeConfig")[0..8]. */
export const FEE_CONFIG_DISCRIMINATOR: Uint8Array = Uint8Array.of(143, 52, 146, 187, 219, 123, 76, 155);
/** FeeConfig versions by account length: fee tiers only. */
export const FEE_CONFIG_INITIALIZE_SIZE = 2512;
/** ... plus stable fee tiers. */
export const FEE_CONFIG_POST_STABLE_SIZE = 4073;
/** ... plus exotic flat fees (current). */
export const FEE_CONFIG_CURRENT_SIZE = 4097;
/** The program never writes more tiers than this per vector (`MAX_FEE_TIERS_SUPPORTED`). */
export const MAX_FEE_TIERS = 50;
/** Offset of the `fee_tiers` vector: discriminator 8 + bump 1 + admin 32 + flat_fees 24. */
export const FEE_TIERS_OFFSET = 65;

const FEES_LEN = 24;
const TIER_LEN = 40;

/** A fee schedule in basis points (`Fees`). */
export interface FeeSchedule {
  lpFeeBps: bigint;
  protocolFeeBps: bigint;
  creatorFeeBps: bigint;
}

/** One market-cap tier: applies from `marketCapThreshold` (u128, in quote atoms) upwards. */
export interface FeeTier {
  marketCapThreshold: bigint;
  fees: FeeSchedule;
}

/** Decoded FeeConfig as the program reads it for the account's length. */
export interface FeeConfigFields {
  bump: number;
  admin: string;
  flatFees: FeeSchedule;
  feeTiers: FeeTier[];
  /** Empty below {@link FEE_CONFIG_POST_STABLE_SIZE}. */
  stableFeeTiers: FeeTier[];
  /** All zero (unset) below {@link FEE_CONFIG_CURRENT_SIZE}. */
  exoticFlatFees: FeeSchedule;
}

function view(data: Uint8Array): DataView {
  return new DataView(data.buffer, data.byteOffset, data.byteLength);
}

function readFees(dv: DataView, o: number): FeeSchedule {
  return { lpFeeBps: dv.getBigUint64(o, true), protocolFeeBps: dv.getBigUint64(o + 8, true), creatorFeeBps: dv.getBigUint64(o + 16, true) };
}

function readTiers(data: Uint8Array, dv: DataView, o: number): { tiers: FeeTier[]; end: number } | null {
  if (o + 4 > data.length) return null;
  const n = dv.getUint32(o, true);
  const end = o + 4 + n * TIER_LEN;
  if (n > MAX_FEE_TIERS || end > data.length) return null;
  const tiers: FeeTier[] = [];
  for (let i = 0; i < n; i++) {
    const t = o + 4 + i * TIER_LEN;
    tiers.push({ marketCapThreshold: dv.getBigUint64(t, true) | (dv.getBigUint64(t + 8, true) << 64n), fees: readFees(dv, t + 16) });
  }
  return { tiers, end };
}

/** True when `data` is a FeeConfig the program could read (discriminator, version length, sane tier vectors). */
export function isFeeConfigAccount(data: Uint8Array): boolean {
  return data.length >= FEE_CONFIG_INITIALIZE_SIZE && hasDiscriminator(data, FEE_CONFIG_DISCRIMINATOR) && tryDecodeFeeConfig(data) !== null;
}

/** Decodes a FeeConfig, or null when it is not one (short, wrong discriminator, a tier vector out of bounds). */
export function tryDecodeFeeConfig(data: Uint8Array): FeeConfigFields | null {
  if (data.length < FEE_CONFIG_INITIALIZE_SIZE || !hasDiscriminator(data, FEE_CONFIG_DISCRIMINATOR)) return null;
  const dv = view(data);
  const fee = readTiers(data, dv, FEE_TIERS_OFFSET);
  if (!fee) return null;
  let stableFeeTiers: FeeTier[] = [];
  let exoticFlatFees: FeeSchedule = { lpFeeBps: 0n, protocolFeeBps: 0n, creatorFeeBps: 0n };
  if (data.length >= FEE_CONFIG_POST_STABLE_SIZE) {
    const stable = readTiers(data, dv, fee.end);
    if (!stable) return null;
    stableFeeTiers = stable.tiers;
    if (data.length >= FEE_CONFIG_CURRENT_SIZE) {
      if (stable.end + FEES_LEN > data.length) return null;
      exoticFlatFees = readFees(dv, stable.end);
    }
  }
  return {
    bump: data[8]!,
    admin: bs58.encode(data.subarray(9, 41)),
    flatFees: readFees(dv, 41),
    feeTiers: fee.tiers,
    stableFeeTiers,
    exoticFlatFees,
  };
}

/** Decodes a FeeConfig. Throws EngineError `PUMPFUN_BAD_ACCOUNT` if it is not one. */
export function decodeFeeConfig(data: Uint8Array): FeeConfigFields {
  const f = tryDecodeFeeConfig(data);
  if (!f) throw new EngineError('PUMPFUN_BAD_ACCOUNT', 'not a pump-fees FeeConfig account', { length: data.length });
  return f;
}

/**
 * Encodes a FeeConfig into an account of `size` bytes (one of the three versions; the real account is
 * pre-allocated, the tail stays zero). The fields the version lacks are not written. RangeError when the
 * content does not fit or a vector exceeds {@link MAX_FEE_TIERS}.
 */
export function encodeFeeConfig(f: FeeConfigFields, size: number = FEE_CONFIG_CURRENT_SIZE): Uint8Array {
  if (size < FEE_CONFIG_INITIALIZE_SIZE) throw new RangeError(`FeeConfig size ${size} below ${FEE_CONFIG_INITIALIZE_SIZE}`);
  const out = new Uint8Array(size);
  const dv = view(out);
  out.set(FEE_CONFIG_DISCRIMINATOR, 0);
  out[8] = f.bump;
  const admin = bs58.decode(f.admin);
  if (admin.length !== 32) throw new RangeError('admin: not a 32-byte key');
  out.set(admin, 9);
  const writeFees = (o: number, s: FeeSchedule): void => {
    dv.setBigUint64(o, s.lpFeeBps, true);
    dv.setBigUint64(o + 8, s.protocolFeeBps, true);
    dv.setBigUint64(o + 16, s.creatorFeeBps, true);
  };
  const writeTiers = (o: number, tiers: readonly FeeTier[]): number => {
    if (tiers.length > MAX_FEE_TIERS) throw new RangeError(`more than ${MAX_FEE_TIERS} fee tiers`);
    const end = o + 4 + tiers.length * TIER_LEN;
    if (end > size) throw new RangeError('fee tiers do not fit the account');
    dv.setUint32(o, tiers.length, true);
    tiers.forEach((t, i) => {
      const at = o + 4 + i * TIER_LEN;
      dv.setBigUint64(at, t.marketCapThreshold & 0xffff_ffff_ffff_ffffn, true);
      dv.setBigUint64(at + 8, t.marketCapThreshold >> 64n, true);
      writeFees(at + 16, t.fees);
    });
    return end;
  };
  writeFees(41, f.flatFees);
  const feeEnd = writeTiers(FEE_TIERS_OFFSET, f.feeTiers);
  if (size >= FEE_CONFIG_POST_STABLE_SIZE) {
    const stableEnd = writeTiers(feeEnd, f.stableFeeTiers);
    if (size >= FEE_CONFIG_CURRENT_SIZE) {
      if (stableEnd + FEES_LEN > size) throw new RangeError('exotic flat fees do not fit the account');
      writeFees(stableEnd, f.exoticFlatFees);
    }
  }
  return out;
}
