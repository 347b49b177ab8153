/**
 * The `maxAccounts` budget of a route: what a route's swap transaction references, counted as the sum of its legs'
 * `accountsPerSwap` (each adapter's swap instruction) plus {@link ROUTE_ACCOUNT_OVERHEAD}, the accounts the
 * transaction adds around the legs. The convention is written out in engine/router/README.md ("maxAccounts").
 */

/**
 * Accounts a swap transaction references besides its legs' swap instructions: the Compute Budget program
 * (unit limit and price), the Associated Token Account program and the System program (create-idempotent of the
 * output and intermediate token accounts, wrapping SOL), the SPL Token program (sync_native / close_account of
 * wrapped SOL) and the wrapped SOL mint (its token account's creation). Why not the payer, the user's token
 * accounts or the DEXes' token programs: every leg's instruction already names them, and legs are summed without
 * removing repeats, so the sum is an upper bound of the distinct accounts and these five complete it.
 */
export const ROUTE_ACCOUNT_OVERHEAD = 5;

/** The accounts of a route whose legs reference `legAccounts` in total. */
export function routeAccounts(legAccounts: number): number {
  return legAccounts + ROUTE_ACCOUNT_OVERHEAD;
}
