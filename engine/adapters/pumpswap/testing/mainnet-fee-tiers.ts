/**
 * Test, bench and localnet support: the live mainnet pump-amm FeeConfig schedules (flat fees and the 25 SOL and
 * 25 USDC market-cap tiers), as captured by `@pump-fun/pump-swap-sdk`'s `feeConfigMainnetFixture.ts` (slot
 * 445186127). Thresholds are quote atoms (lamports / USDC micro-units); fees are [lp, protocol, creator] bps.
 */
import type { FeesBps, FeeTier } from '../layout.js';

type Row = readonly [threshold: bigint, lp: bigint, protocol: bigint, creator: bigint];

const fees = (lp: bigint, protocol: bigint, creator: bigint): FeesBps => ({ lpFeeBps: lp, protocolFeeBps: protocol, creatorFeeBps: creator });
const tiers = (rows: readonly Row[]): FeeTier[] => rows.map(([t, lp, p, c]) => ({ marketCapThreshold: t, fees: fees(lp, p, c) }));
const CREATOR_STEPS = [95n, 90n, 85n, 80n, 75n, 70n, 65n, 60n, 55n, 50n, 45n, 40n, 35n, 30n, 28n, 25n, 23n, 20n, 18n, 15n, 13n, 10n, 8n, 5n];
const SOL_THRESHOLDS = [420n, 1470n, 2460n, 3440n, 4420n, 9820n, 14740n, 19650n, 24560n, 29470n, 34380n, 39300n, 44210n, 49120n, 54030n, 58940n, 63860n, 68770n, 73681n, 78590n, 83500n, 88400n, 93330n, 98240n].map((x) => x * 1_000_000_000n);
const USDC_THRESHOLDS = [59_000n, 300_000n, 500_000n, 700_000n, 900_000n, 2_000_000n, 3_000_000n, 4_000_000n, 5_000_000n, 6_000_000n, 7_000_000n, 8_000_000n, 9_000_000n, 10_000_000n, 11_000_000n, 12_000_000n, 13_000_000n, 14_000_000n, 15_000_000n, 16_000_000n, 17_000_000n, 18_000_000n, 19_000_000n, 20_000_000n].map((x) => x * 1_000_000n);

/** Mainnet `flat_fees`: 25 / 5 / 0 bps. */
export const MAINNET_FLAT_FEES: FeesBps = fees(25n, 5n, 0n);
/** Mainnet `fee_tiers` (SOL-like quotes): 2/93/30 below 420 SOL of market cap, then 20/5 with a falling creator fee. */
export const MAINNET_FEE_TIERS: readonly FeeTier[] = tiers([[0n, 2n, 93n, 30n], ...SOL_THRESHOLDS.map((t, i): Row => [t, 20n, 5n, CREATOR_STEPS[i]!])]);
/** Mainnet `stable_fee_tiers` (USDC quotes; thresholds in USDC atoms). */
export const MAINNET_STABLE_FEE_TIERS: readonly FeeTier[] = tiers([[0n, 2n, 93n, 30n], ...USDC_THRESHOLDS.map((t, i): Row => [t, 20n, 5n, CREATOR_STEPS[i]!])]);
