/**
 * The serving side of the replay benchmark, in its own process so it never shares a core with the consumer.
 * argv: mode pools count swapsPerSlot
 * - `replay`: the localnet replay server (`fixtures/localnet/replay/server.ts`) serving `count` pre-encoded swap
 *   frames of a `pools`-pool universe; each stream ends after its replay. Prints `REPLAY_WRITTEN {stats}` per stream.
 * - `live` (baseline): the localnet's own Geyser server over a ledger; once a subscriber is in, the same swaps
 *   are written to the ledger, one slot per event-loop turn, so the live path (session filters, grpc-js encoding
 *   each message) carries them.
 * Prints `FEED_READY {json}` once listening.
 */
import { startGeyserServer } from '../fixtures/localnet/geyser/server.js';
import { Ledger } from '../fixtures/localnet/ledger/ledger.js';
import type { AccountVersion } from '../fixtures/localnet/ledger/ledger-types.js';
import { accountFrameCount } from '../fixtures/localnet/replay/frames.js';
import { ReplaySource } from '../fixtures/localnet/replay/select.js';
import { startReplayServer } from '../fixtures/localnet/replay/server.js';
import { buildReplayEvents, buildReplayFrames } from '../fixtures/localnet/replay/swaps.js';
import { buildUniverse, loadUniverse } from '../fixtures/localnet/universe/universe.js';

const [mode = 'replay', poolsArg = '200', countArg = '200000', perSlotArg = '100'] = process.argv.slice(2);
const pools = Number(poolsArg);
const count = Number(countArg);
const swapsPerSlot = Number(perSlotArg);
const universe = buildUniverse({ pools });
const ready = (info: object): void => void process.stdout.write(`FEED_READY ${JSON.stringify(info)}\n`);

if (mode === 'replay') {
  const t0 = performance.now();
  const frames = buildReplayFrames(universe, { count, swapsPerSlot });
  const buildMs = performance.now() - t0;
  const server = await startReplayServer(new ReplaySource(frames), {
    port: 0,
    endAfterReplay: true,
    onReplayWritten: (s) => process.stdout.write(`REPLAY_WRITTEN ${JSON.stringify(s)}\n`),
  });
  ready({ port: server.port, frames: frames.length, accountFrames: accountFrameCount(frames), buildMs: Math.round(buildMs) });
} else {
  // Slot 300,000,000 is genesis; the replay's swaps start in 300,000,001, which advance() opens.
  const ledger = new Ledger({ seed: universe.seed });
  loadUniverse(ledger, universe);
  ledger.advance();
  const events = buildReplayEvents(universe, { count, swapsPerSlot });
  const geyser = await startGeyserServer(ledger, { port: 0 });
  ready({ port: geyser.port, accountFrames: count });
  while (geyser.streamCount === 0) await new Promise((r) => setTimeout(r, 5));
  // The subscriber's filters arrive just after its stream opens.
  await new Promise((r) => setTimeout(r, 200));
  // Swaps by slot: one write group per swap (the writes that share a signature), as the simulator lands them.
  const slots: AccountVersion[][][] = [];
  let last: AccountVersion | undefined;
  for (const e of events) {
    if (e.kind !== 'account') continue;
    const a = e.account;
    if (!last || a.slot !== last.slot) slots.push([]);
    const swaps = slots[slots.length - 1]!;
    if (!last || a.txnSignature !== last.txnSignature || a.slot !== last.slot) swaps.push([]);
    swaps[swaps.length - 1]!.push(a);
    last = a;
  }
  let next = 0;
  const slotTurn = (): void => {
    for (const swap of slots[next++]!) {
      ledger.write(swap.map((a) => ({ address: a.address, owner: a.owner, lamports: a.lamports, data: a.data })), swap[0]!.txnSignature);
    }
    ledger.advance();
    if (next < slots.length) setImmediate(slotTurn);
  };
  slotTurn();
}
