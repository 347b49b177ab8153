/**
 * Detects a Token-2022 `TransferFeeConfig` extension with a nonzero fee on a mint: the one mint-level effect a
 * LaunchLab quote would need (the SDK's `transferFeeConfigA`). It is not modelled; pools whose base mint charges
 * a transfer fee are INACTIVE rather than quoted wrong (see the README).
 */
import { MINT_SIZE } from '../common/spl-layouts.js';

/** Start of the TLV area of a Token-2022 mint (165-byte base padded like an account, then the account type byte). */
const TLV_START = 166;
/** Extension type of TransferFeeConfig. */
const TRANSFER_FEE_CONFIG = 1;
/** Offsets of `transfer_fee_basis_points` of the older and newer fee inside the extension value. */
const OLDER_BPS = 32 + 32 + 8 + 16;
const NEWER_BPS = OLDER_BPS + 18;

/** True when `mint` is a Token-2022 mint whose TransferFeeConfig charges a fee in either schedule. */
export function hasTransferFee(mint: Uint8Array): boolean {
  if (mint.length <= TLV_START || mint.length < MINT_SIZE) return false;
  const dv = new DataView(mint.buffer, mint.byteOffset, mint.byteLength);
  let at = TLV_START;
  while (at + 4 <= mint.length) {
    const type = dv.getUint16(at, true);
    const len = dv.getUint16(at + 2, true);
    if (type === 0) return false; // uninitialized: the end of the TLV entries
    if (type === TRANSFER_FEE_CONFIG && at + 4 + NEWER_BPS + 2 <= mint.length) {
      return dv.getUint16(at + 4 + OLDER_BPS, true) !== 0 || dv.getUint16(at + 4 + NEWER_BPS, true) !== 0;
    }
    at += 4 + len;
  }
  return false;
}
