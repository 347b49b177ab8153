/**
 * The program's token movements for one swap, for the localnet (v1 `buy` / `sell` / `buy_exact_quote_in`):
 * buy — the user pays q + lp into the quote vault, the protocol fee to the protocol fee recipient's token account
 * and the coin-creator fee to the creator vault's token account, and receives the base out of the base vault;
 * sell — the base goes into the base vault, and the quote vault pays the user's output, the protocol fee and the
 * coin-creator fee (the LP fee stays in it). The Pool account itself does not change on v1 trades.
 * Not modelled: the user's own token accounts (the localnet's ledger moves those), the buyback share of the
 * protocol fee, cashback, volume accumulators.
 */
import { poolStateForExecute } from '../common/execute-support.js';
import bs58 from 'bs58';
import { TOKEN_ACCOUNT_SIZE, encodeTokenAccount, tokenAccountAmount, withTokenAmount } from '../common/spl-layouts.js';
import type { AccountWrite, ChainClock, ExecuteResult, PoolDescriptor, SwapMode } from '../types.js';
import { feeAccountsOf, tokenProgramOf } from './accounts.js';
import { decodeGlobalConfig, decodePoolAccount } from './layout.js';
import { type PumpswapSwap, U64_MAX } from './math.js';
import { pumpswapQuote } from './quote.js';
import { buildPumpswapState } from './state.js';

const WSOL_MINT = 'So11111111111111111111111111111111111111112';
/** Rent-exempt minimum of a 165-byte token account (the `is_native` reserve of a wrapped-SOL account). */
const TOKEN_ACCOUNT_RENT = 2_039_280n;

function credit(accounts: ReadonlyMap<string, Uint8Array>, address: string, mint: string, owner: string, amount: bigint): AccountWrite | null {
  const cur = accounts.get(address);
  if (cur && cur.length >= TOKEN_ACCOUNT_SIZE) {
    const next = tokenAccountAmount(cur) + amount;
    return next > U64_MAX ? null : { address, data: withTokenAmount(cur, next) };
  }
  // init_if_needed: the program creates the associated token account when it does not exist yet.
  return {
    address,
    data: encodeTokenAccount({
      mint: bs58.decode(mint), owner: bs58.decode(owner), amount, delegate: null, state: 1,
      isNative: mint === WSOL_MINT ? TOKEN_ACCOUNT_RENT : null, delegatedAmount: 0n, closeAuthority: null,
    }),
  };
}

/** The fee and vault accounts a swap changes, for tests and the localnet program. */
export interface PumpswapExecuteResult extends ExecuteResult {
  readonly quote: PumpswapSwap;
}

/**
 * Executes a swap on the pool's accounts (`accounts`: pool, its dependencies and, when they exist, the fee
 * recipients' token accounts). Returns the quote and, when it is OK, the new data of both vaults and of the fee
 * accounts that receive something. Throws EngineError `PUMPSWAP_MISSING_ACCOUNT` when the pool or a dependency is
 * absent (a localnet setup bug).
 */
export function pumpswapExecute(
  pool: PoolDescriptor,
  accounts: ReadonlyMap<string, Uint8Array>,
  aToB: boolean,
  amount: bigint,
  mode: SwapMode,
  clock: ChainClock,
): PumpswapExecuteResult {
  const [globalKey, , , baseVaultKey, quoteVaultKey] = pool.dependencies;
  const { data: poolData, state } = poolStateForExecute(pool, accounts, clock, buildPumpswapState, 'PUMPSWAP_MISSING_ACCOUNT', 'PumpSwap pool, config, mint or vault account missing', [globalKey, baseVaultKey, quoteVaultKey]);
  const q = pumpswapQuote(state, aToB, amount, mode);
  if (q.status !== 'OK') return { quote: q, writes: [] };
  const p = decodePoolAccount(poolData);
  const baseVault = accounts.get(baseVaultKey)!;
  const quoteVault = accounts.get(quoteVaultKey)!;
  const fees = feeAccountsOf(p, decodeGlobalConfig(accounts.get(globalKey)!), tokenProgramOf(quoteVault));
  const base = aToB ? q.inAmount : q.outAmount;
  const newBase = aToB ? tokenAccountAmount(baseVault) + base : tokenAccountAmount(baseVault) - base;
  // Sell: the vault pays q - lp (user + protocol + creator); buy: it receives q + lp.
  const newQuote = aToB ? tokenAccountAmount(quoteVault) - (q.curveQuote - q.lpFee) : tokenAccountAmount(quoteVault) + q.curveQuote + q.lpFee;
  if (newBase > U64_MAX || newQuote > U64_MAX || newBase < 0n || newQuote < 0n) return { quote: { ...q, status: 'INSUFFICIENT_LIQUIDITY' }, writes: [] };
  const writes: AccountWrite[] = [
    { address: baseVaultKey, data: withTokenAmount(baseVault, newBase) },
    { address: quoteVaultKey, data: withTokenAmount(quoteVault, newQuote) },
  ];
  for (const [address, owner, fee] of [
    [fees.protocolFeeAccount, fees.protocolFeeRecipient, q.protocolFee],
    [fees.coinCreatorVaultAccount, fees.coinCreatorVaultAuthority, q.creatorFee],
  ] as const) {
    if (fee === 0n) continue;
    const w = credit(accounts, address, p.quoteMint, owner, fee);
    if (!w) return { quote: { ...q, status: 'INSUFFICIENT_LIQUIDITY' }, writes: [] };
    writes.push(w);
  }
  return { quote: q, writes };
}
