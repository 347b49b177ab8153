/**
 * Whether a mint charges a Token-2022 transfer fee: the one mint-level effect a LaunchLab quote would need (the
 * SDK's `transferFeeConfigA`). It is not modelled; pools whose base mint charges a transfer fee are INACTIVE rather
 * than quoted wrong (see the README). The extension is read by `../common/transfer-fee.ts`.
 */
import { mintTransferFeeConfig } from '../common/transfer-fee.js';

/** True when `mint` is a Token-2022 mint whose TransferFeeConfig charges a fee in either schedule. */
export function hasTransferFee(mint: Uint8Array): boolean {
  const config = mintTransferFeeConfig(mint);
  return config !== null && (config.older.basisPoints !== 0 || config.newer.basisPoints !== 0);
}
