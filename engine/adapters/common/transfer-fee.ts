/**
 * Token-2022 transfer fees as DEX programs apply them: the mint's `TransferFeeConfig` extension (an older and a
 * newer schedule, chosen by epoch), the fee on an amount sent (`calculate_epoch_fee`), and the fee to add so that a
 * recipient nets a given amount (`calculate_inverse_epoch_fee`, with the 100 % case at the maximum fee, as Raydium's
 * `get_transfer_inverse_fee` reads it). Pure, bigint.
 *
 * Mint layout: the 82-byte base, zero padding to 165, the account type byte (1 = mint) at 165, then TLV entries
 * (u16 type, u16 length, value) from 166. TransferFeeConfig is type 1, 108 bytes: config authority (32), withdraw
 * authority (32), withheld amount u64, older fee {epoch u64, maximum_fee u64, basis_points u16}, newer fee (same).
 */

/** One transfer fee schedule. */
export interface TransferFee {
  /** First epoch the schedule applies to. */
  readonly epoch: bigint;
  readonly maximumFee: bigint;
  /** 0..10,000. */
  readonly basisPoints: number;
}

/** The mint's two schedules. */
export interface TransferFeeConfig {
  readonly older: TransferFee;
  readonly newer: TransferFee;
}

const BASE_END = 165;
const MINT_ACCOUNT_TYPE = 1;
const TRANSFER_FEE_CONFIG = 1;
const TRANSFER_FEE_CONFIG_LEN = 108;
/** 100 % in basis points. */
export const MAX_FEE_BASIS_POINTS = 10_000;
const ONE = BigInt(MAX_FEE_BASIS_POINTS);

function fee(dv: DataView, o: number): TransferFee {
  return { epoch: dv.getBigUint64(o, true), maximumFee: dv.getBigUint64(o + 8, true), basisPoints: dv.getUint16(o + 16, true) };
}

/**
 * The TransferFeeConfig of a mint account's data, or null when it has none (an SPL Token mint, a Token-2022 mint
 * without the extension, or data that is not a mint).
 */
export function mintTransferFeeConfig(data: Uint8Array): TransferFeeConfig | null {
  if (data.length <= BASE_END || data[BASE_END] !== MINT_ACCOUNT_TYPE) return null;
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let o = BASE_END + 1; o + 4 <= data.length; ) {
    const type = dv.getUint16(o, true);
    const len = dv.getUint16(o + 2, true);
    if (type === 0 && len === 0) return null; // uninitialized tail
    if (o + 4 + len > data.length) return null;
    if (type === TRANSFER_FEE_CONFIG) {
      if (len < TRANSFER_FEE_CONFIG_LEN) return null;
      return { older: fee(dv, o + 4 + 72), newer: fee(dv, o + 4 + 90) };
    }
    o += 4 + len;
  }
  return null;
}

/** The schedule in force at `epoch` (the newer one from its epoch on). */
export function epochTransferFee(config: TransferFeeConfig, epoch: bigint): TransferFee {
  return epoch >= config.newer.epoch ? config.newer : config.older;
}

/** The fee withheld when `amount` is sent: min(ceil(amount x bps / 10,000), maximum_fee); 0 without a schedule. */
export function transferFee(schedule: TransferFee | null, amount: bigint): bigint {
  if (!schedule || schedule.basisPoints === 0 || amount === 0n) return 0n;
  const raw = (amount * BigInt(schedule.basisPoints) + ONE - 1n) / ONE;
  return raw < schedule.maximumFee ? raw : schedule.maximumFee;
}

/**
 * The fee to add so that the recipient nets `post`: Token-2022's `calculate_inverse_fee` (the fee of the pre-fee
 * amount `calculate_pre_fee_amount` finds), and the maximum fee at 100 %, as Raydium's programs read it.
 */
export function inverseTransferFee(schedule: TransferFee | null, post: bigint): bigint {
  if (!schedule || schedule.basisPoints === 0) return 0n;
  if (schedule.basisPoints === MAX_FEE_BASIS_POINTS) return schedule.maximumFee;
  if (post === 0n) return 0n;
  const denominator = ONE - BigInt(schedule.basisPoints);
  const raw = (post * ONE + denominator - 1n) / denominator;
  const pre = raw - post >= schedule.maximumFee ? post + schedule.maximumFee : raw;
  return transferFee(schedule, pre);
}

/** True while the newer schedule is still ahead of `epoch` (a quote changes when the epoch reaches it). */
export function transferFeeChangesAfter(config: TransferFeeConfig | null, epoch: bigint): boolean {
  return config !== null && epoch < config.newer.epoch;
}
