/**
 * The four curve walks of `swap-math.ts` split into what depends on the state only and what depends on the amount.
 * A walk starts at the pool's sqrt price and crosses whole segments until the amount runs out inside one: every
 * whole segment's input or output (the U256 `delta*256`), its delta on the other side and the running u64 total
 * depend on the state alone. They are computed once per state, on its first quote in that direction and mode
 * (kept beside the state in a WeakMap: states are immutable), as a list of {@link Step}s with cumulative sums; a
 * quote then only compares its amount with the cumulative sums and computes the one partial segment.
 *
 * Exactness: a step records the values and program errors of the original loop in the original order: the error of
 * the segment's maximum (hit whenever the walk reaches the segment), then, only when the amount crosses it whole,
 * the error of its delta or of the u64 total. `left < max` of the loop is `amount < cumulative max` here, since
 * `left = amount - (sum of earlier maxima)`. The list stops at the first step with an error: the walk cannot pass
 * it. `walk-table.test.ts` checks every walk against the loop of `swap-math.ts`, amount for amount.
 */
import { type DbcError, U64_MAX, deltaBase, deltaBase256, deltaQuote, deltaQuote256 } from './curve-math.js';
import type { CurvePoint } from './layout.js';

/** One whole segment of a walk, in walk order. */
export interface Step {
  /** Sqrt price where the segment starts (the walk's price when it enters it). */
  readonly from: bigint;
  /** Sqrt price where it ends (a curve point, or the migration price). */
  readonly to: bigint;
  readonly liquidity: bigint;
  /** Error of the segment's maximum (input or output), or null. */
  readonly maxError: DbcError | null;
  /** Sum of the maxima through this segment (input for exact-in walks, output for exact-out walks). */
  readonly cumMax: bigint;
  /** The walk's u64 total before this segment. */
  readonly totalBefore: bigint;
  /** Error of crossing it whole (its other-side delta, or the total passing u64), or null. */
  readonly crossError: DbcError | null;
}

/** A walk's whole segments; `end*` is where it stands after all of them (unused when the last step has an error). */
export interface WalkTable {
  readonly steps: readonly Step[];
  readonly endPrice: bigint;
  readonly endTotal: bigint;
  readonly endCumMax: bigint;
}

/** What a walk reads of the state. */
export interface WalkCurve {
  readonly sqrtPrice: bigint;
  readonly migrationSqrtPrice: bigint;
  readonly curve: readonly CurvePoint[];
}

const ZERO_POINT: CurvePoint = { sqrtPrice: 0n, liquidity: 0n };
const seg = (curve: readonly CurvePoint[], i: number): CurvePoint => curve[i] ?? ZERO_POINT;
/** Number of curve points the program walks (`MAX_CURVE_POINT_CONFIG`). */
const POINTS = 20;

function add64(a: bigint, b: bigint): bigint | DbcError {
  const s = a + b;
  return s > U64_MAX ? 'MathOverflow' : s;
}

/** Builds the table of one walk from its segments in walk order; `max` and `cross` are the loop's two deltas. */
class TableBuilder {
  private readonly steps: Step[] = [];
  private cum = 0n;
  private total = 0n;
  /** False once a step with an error is recorded: the walk cannot go past it. */
  open = true;

  /** Records the segment [from, to] at `liquidity`; returns false when the walk cannot go past it. */
  add(from: bigint, to: bigint, liquidity: bigint, max: bigint | DbcError, cross: bigint | DbcError): boolean {
    if (typeof max === 'string') {
      this.steps.push({ from, to, liquidity, maxError: max, cumMax: this.cum, totalBefore: this.total, crossError: null });
      this.open = false;
      return false;
    }
    const totalBefore = this.total;
    this.cum += max;
    const t = typeof cross === 'string' ? cross : add64(totalBefore, cross);
    const crossError = typeof t === 'string' ? t : null;
    this.steps.push({ from, to, liquidity, maxError: null, cumMax: this.cum, totalBefore, crossError });
    if (crossError !== null) {
      this.open = false;
      return false;
    }
    this.total = t as bigint;
    return true;
  }

  build(endPrice: bigint): WalkTable {
    return { steps: this.steps, endPrice, endTotal: this.total, endCumMax: this.cum };
  }
}

/** Sell (base in) exact-in: down the curve, input maxima `deltaBase256` (up), output `deltaQuote` (down). */
function sellInTable(s: WalkCurve): WalkTable {
  const b = new TableBuilder();
  let cur = s.sqrtPrice;
  for (let i = POINTS - 2; i >= 0; i--) {
    const p = seg(s.curve, i);
    if (p.sqrtPrice === 0n || p.liquidity === 0n) continue;
    if (p.sqrtPrice < cur) {
      const liq = seg(s.curve, i + 1).liquidity;
      if (!b.add(cur, p.sqrtPrice, liq, deltaBase256(p.sqrtPrice, cur, liq, true), deltaQuote(p.sqrtPrice, cur, liq, false))) break;
      cur = p.sqrtPrice;
    }
  }
  return b.build(cur);
}

/** Sell (base in) exact-out: down the curve, output maxima `deltaQuote256` (down), input `deltaBase` (up). */
function sellOutTable(s: WalkCurve): WalkTable {
  const b = new TableBuilder();
  let cur = s.sqrtPrice;
  for (let i = POINTS - 2; i >= 0; i--) {
    const p = seg(s.curve, i);
    if (p.sqrtPrice === 0n || p.liquidity === 0n) continue;
    if (p.sqrtPrice < cur) {
      const liq = seg(s.curve, i + 1).liquidity;
      if (!b.add(cur, p.sqrtPrice, liq, deltaQuote256(p.sqrtPrice, cur, liq, false), deltaBase(p.sqrtPrice, cur, liq, true))) break;
      cur = p.sqrtPrice;
    }
  }
  return b.build(cur);
}

/** Buy (quote in) exact-in: up the curve to the migration price, input maxima `deltaQuote256` (up), output `deltaBase` (down). */
function buyInTable(s: WalkCurve): WalkTable {
  const b = new TableBuilder();
  const stop = s.migrationSqrtPrice;
  let cur = s.sqrtPrice;
  for (let i = 0; i < POINTS; i++) {
    const p = seg(s.curve, i);
    if (p.sqrtPrice === 0n || p.liquidity === 0n) break;
    const ref = stop < p.sqrtPrice ? stop : p.sqrtPrice;
    if (ref > cur) {
      if (!b.add(cur, ref, p.liquidity, deltaQuote256(cur, ref, p.liquidity, true), deltaBase(cur, ref, p.liquidity, false))) break;
      cur = ref;
      if (ref === stop) break;
    }
  }
  return b.build(cur);
}

/** Buy (quote in) exact-out: up the curve, output maxima `deltaBase256` (down), input `deltaQuote` (up). */
function buyOutTable(s: WalkCurve): WalkTable {
  const b = new TableBuilder();
  let cur = s.sqrtPrice;
  for (let i = 0; i < POINTS; i++) {
    const p = seg(s.curve, i);
    if (p.sqrtPrice === 0n || p.liquidity === 0n) break;
    if (p.sqrtPrice > cur) {
      if (!b.add(cur, p.sqrtPrice, p.liquidity, deltaBase256(cur, p.sqrtPrice, p.liquidity, false), deltaQuote(cur, p.sqrtPrice, p.liquidity, true))) break;
      cur = p.sqrtPrice;
    }
  }
  return b.build(cur);
}

/** The four walk tables of one state, each built on first use. */
interface Tables {
  sellIn?: WalkTable;
  sellOut?: WalkTable;
  buyIn?: WalkTable;
  buyOut?: WalkTable;
}

const cache = new WeakMap<WalkCurve, Tables>();

function tablesOf(s: WalkCurve): Tables {
  let t = cache.get(s);
  if (t === undefined) {
    t = {};
    cache.set(s, t);
  }
  return t;
}

/** The table of a sell (base in) exact-in walk of this state. */
export function sellInWalk(s: WalkCurve): WalkTable {
  const t = tablesOf(s);
  return t.sellIn ??= sellInTable(s);
}

/** The table of a sell (base in) exact-out walk of this state. */
export function sellOutWalk(s: WalkCurve): WalkTable {
  const t = tablesOf(s);
  return t.sellOut ??= sellOutTable(s);
}

/** The table of a buy (quote in) exact-in walk of this state (up to the migration price). */
export function buyInWalk(s: WalkCurve): WalkTable {
  const t = tablesOf(s);
  return t.buyIn ??= buyInTable(s);
}

/** The table of a buy (quote in) exact-out walk of this state. */
export function buyOutWalk(s: WalkCurve): WalkTable {
  const t = tablesOf(s);
  return t.buyOut ??= buyOutTable(s);
}
