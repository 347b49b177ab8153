/**
 * The Yellowstone package loaded once: its message codecs (ts-proto: encode/decode/fromPartial), enums and the
 * native client class. Loaded through createRequire because the package's ESM default export is the client only.
 */
import { createRequire } from 'node:module';
import type * as Y from '@triton-one/yellowstone-grpc';

const require = createRequire(import.meta.url);

/** The package's CommonJS exports, typed. */
// Under nodenext a CommonJS package's `default` is its whole module.exports, so the class is `default.default`.
export const yellowstone = require('@triton-one/yellowstone-grpc') as typeof Y.default;

export type {
  SubscribeRequest,
  SubscribeUpdate,
  SubscribeUpdateAccount,
  SubscribeUpdateSlot,
  SubscribeRequestFilterAccounts,
  SubscribeRequestFilterAccountsFilter,
  SubscribeDeshredRequest,
  SubscribeUpdateDeshred,
} from '@triton-one/yellowstone-grpc';

/** Commitment levels of the protocol (PROCESSED 0, CONFIRMED 1, FINALIZED 2). */
export const CommitmentLevel = yellowstone.CommitmentLevel;
/** Slot statuses of the protocol (SLOT_PROCESSED 0, SLOT_CONFIRMED 1, SLOT_FINALIZED 2, ...). */
export const SlotStatus = yellowstone.SlotStatus;

/** The native (napi) client class. */
export const YellowstoneClient = yellowstone.default;
