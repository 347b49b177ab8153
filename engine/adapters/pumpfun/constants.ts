/** Small constants shared by the pump.fun adapter's files. */

/** The System program id. */
export const SYSTEM_PROGRAM_ID = '11111111111111111111111111111111';
/** EngineError code: a descriptor that does not end with the curve's associated token account (not from decodePool). */
export const PUMPFUN_MINT_NOT_REGISTERED = 'PUMPFUN_MINT_NOT_REGISTERED';
