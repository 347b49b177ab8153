/**
 * Test support: the malformed, unsigned and oversize bodies every signed-transaction route must refuse before it
 * reaches a node, each with the spec's code, built around one valid signed transaction (base64).
 */

/** `[transaction field, expected code]` cases derived from `validBase64`. */
export function badTransactionCases(validBase64: string): [unknown, 'TX_INVALID' | 'TX_UNSIGNED' | 'TX_TOO_LARGE'][] {
  const raw = Buffer.from(validBase64, 'base64');
  const unsigned = Buffer.from(raw);
  unsigned.fill(0, 1, 65);
  return [
    ['@@not base64@@', 'TX_INVALID'],
    [42, 'TX_INVALID'],
    [Buffer.from('hello world, not a transaction').toString('base64'), 'TX_INVALID'],
    [Buffer.concat([raw, Buffer.from([1, 2, 3])]).toString('base64'), 'TX_INVALID'],
    [unsigned.toString('base64'), 'TX_UNSIGNED'],
    [Buffer.alloc(1300, 1).toString('base64'), 'TX_TOO_LARGE'],
  ];
}
