/**
 * Decimals of a mint read from its account (SPL Token or Token-2022: `decimals` u8 at byte 44 of the 82-byte base,
 * `is_initialized` at 45), for pools whose accounts do not carry them.
 */
import { TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from '../adapters/common/spl-layouts.js';

/** Decimals of an initialized mint account owned by a token program, or undefined. */
export function mintDecimalsOf(owner: string, data: Uint8Array): number | undefined {
  if (owner !== TOKEN_PROGRAM_ID && owner !== TOKEN_2022_PROGRAM_ID) return undefined;
  if (data.length < 82 || data[45] !== 1) return undefined;
  // A token account is 165 bytes (plus, on Token-2022, extensions after an account-type byte 2 at 165).
  if (data.length === 165 || (data.length > 165 && data[165] !== 1)) return undefined;
  return data[44];
}
