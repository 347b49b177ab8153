/**
 * Which of the service's lookup tables a swap transaction uses: greedy, the table covering most of the accounts
 * still uncovered first, and only tables covering at least two (a table costs its 32-byte key and three length
 * bytes, a loaded account saves 31 bytes: one account alone does not pay). What stays uncovered is what a new
 * table would hold.
 */
import type { LookupTableRef } from './swap-transaction.js';

/** Tables that pay for themselves. */
export const MIN_COVERED_PER_TABLE = 2;

/** The chosen tables (best first) and the candidates none of them holds, in candidate order. */
export function selectLookupTables(candidates: readonly string[], held: readonly LookupTableRef[]): { tables: LookupTableRef[]; uncovered: string[] } {
  const uncovered = new Set(candidates);
  const sets = held.map((t) => ({ t, has: new Set(t.addresses) }));
  const tables: LookupTableRef[] = [];
  for (;;) {
    let best: { t: LookupTableRef; has: Set<string> } | undefined;
    let bestCount = 0;
    for (const s of sets) {
      if (tables.includes(s.t)) continue;
      let n = 0;
      for (const a of uncovered) if (s.has.has(a)) n++;
      if (n > bestCount) {
        best = s;
        bestCount = n;
      }
    }
    if (!best || bestCount < MIN_COVERED_PER_TABLE) break;
    tables.push(best.t);
    for (const a of best.t.addresses) uncovered.delete(a);
  }
  return { tables, uncovered: candidates.filter((c) => uncovered.has(c)) };
}
