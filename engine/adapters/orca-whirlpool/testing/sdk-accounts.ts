/**
 * Test support: Whirlpool accounts encoded by the SDK's own codecs (`@orca-so/whirlpools-client`), so that our
 * decoders are checked against bytes we did not write.
 */
import type { TickArrayTicks } from '../tick-source.js';
import { TICK_ARRAY_SIZE } from '../tick-math.js';
import { sdkClient } from './sdk-oracle.js';

/** A key for accounts whose address does not matter. */
export const SOME_KEY = 'whirLbMiicVdio4qvUfM5KAg6Ct8VwpYzGff3uctyCc';

function initialized(a: TickArrayTicks, i: number): boolean {
  return ((a.bitmap[i >> 5]! >>> (i & 31)) & 1) === 1;
}

function tickData(net: bigint, i: number): { liquidityNet: bigint; liquidityGross: bigint; feeGrowthOutsideA: bigint; feeGrowthOutsideB: bigint; rewardGrowthsOutside: bigint[] } {
  // Nonzero growth fields, so that a decoder reading the wrong offset fails.
  return {
    liquidityNet: net, liquidityGross: (net < 0n ? -net : net) + 7n, feeGrowthOutsideA: BigInt(i) * 3n + 1n,
    feeGrowthOutsideB: BigInt(i) * 5n + 2n, rewardGrowthsOutside: [11n, 12n, 13n],
  };
}

/** The tick array as account bytes in the fixed (9,988 B) or dynamic format, encoded by the SDK. */
export function encodeTickArrayWithSdk(a: TickArrayTicks, dynamic: boolean, whirlpool = SOME_KEY): Uint8Array {
  const c = sdkClient();
  if (!dynamic) {
    const ticks = [];
    for (let i = 0; i < TICK_ARRAY_SIZE; i++) {
      ticks.push(initialized(a, i) ? { initialized: true, ...tickData(a.liquidityNet[i]!, i) }
        : { initialized: false, liquidityNet: 0n, liquidityGross: 0n, feeGrowthOutsideA: 0n, feeGrowthOutsideB: 0n, rewardGrowthsOutside: [0n, 0n, 0n] });
    }
    return new Uint8Array(c.getFixedTickArrayEncoder().encode({ startTickIndex: a.startTickIndex, ticks, whirlpool: whirlpool as never }));
  }
  let bitmap = 0n;
  const ticks = [];
  for (let i = 0; i < TICK_ARRAY_SIZE; i++) {
    if (initialized(a, i)) {
      bitmap |= 1n << BigInt(i);
      ticks.push({ __kind: 'Initialized' as const, fields: [tickData(a.liquidityNet[i]!, i)] as const });
    } else {
      ticks.push({ __kind: 'Uninitialized' as const });
    }
  }
  return new Uint8Array(c.getDynamicTickArrayEncoder().encode({ startTickIndex: a.startTickIndex, whirlpool: whirlpool as never, tickBitmap: bitmap, ticks }));
}
