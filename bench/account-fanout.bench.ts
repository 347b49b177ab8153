/**
 * The account stream's fan-out on the main thread: one account update (a 637-byte CPMM pool, a 165-byte token
 * account) handed to 1, 10 and 100 clients subscribed to its owner, through `AccountStreams` (the demultiplexing)
 * and the route's frame: serialized once per update and slice (`accountFrame`, as the route does) beside the
 * baseline of serializing it per client. A fresh update object per iteration, as Geyser gives one per write, so
 * the memo is cold for its first client. The hub's write is not included (a push to an array stands in).
 * Run: node dist/bench/account-fanout.bench.js
 */
import { Bench } from 'tinybench';
import { AccountStreams, type AccountUpdate, type AccountWatchLike } from '../engine/services/account-streams.js';
import { accountEvent, accountFrame, MAX_STREAM_DATA_BYTES } from '../http/routes/account-stream.js';
import { sseFrame } from '../http/sse.js';

const OWNER = 'CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C';
const PUBKEY = '7JuwJuNU88gurFnyWeiyGKbFmExMWcmRZntn9imEzdny';

function fanout(clients: number, frame: (u: AccountUpdate) => string): { deliver: (u: AccountUpdate) => void; out: string[] } {
  let deliver: (u: AccountUpdate) => void = () => undefined;
  const watch: AccountWatchLike = { start: () => undefined, setInterest: () => Promise.resolve(), close: () => undefined, watched: { accounts: [], owners: [] }, open: true };
  const streams = new AccountStreams((_c, onAccount) => {
    deliver = onAccount;
    return watch;
  });
  const out: string[] = [];
  for (let i = 0; i < clients; i++) streams.subscribe({ accounts: [], owners: [OWNER], commitment: 'processed' }, (u) => void out.push(frame(u)));
  return { deliver, out };
}

const update = (size: number): AccountUpdate => ({
  pubkey: PUBKEY,
  owner: OWNER,
  data: new Uint8Array(size).fill(3),
  lamports: '2039280',
  slot: 300000123,
  writeVersion: '123456789',
  executable: false,
  rentEpoch: '18446744073709551615',
  txnSignature: '5'.repeat(88),
});

const bench = new Bench({ time: 1500, warmupTime: 300 });
for (const size of [637, 165]) {
  for (const n of [1, 10, 100]) {
    const perClient = fanout(n, (u) => sseFrame('account', accountEvent(u, 0, MAX_STREAM_DATA_BYTES)));
    const shared = fanout(n, (u) => accountFrame(u, 0, MAX_STREAM_DATA_BYTES));
    bench
      .add(`${size} B to ${n} clients: frame per client (baseline)`, () => {
        perClient.deliver(update(size));
        perClient.out.length = 0;
      })
      .add(`${size} B to ${n} clients: frame per update (route)`, () => {
        shared.deliver(update(size));
        shared.out.length = 0;
      });
  }
}
await bench.run();
console.table(
  bench.tasks.map((t) => {
    const r = t.result as unknown as { latency?: { p50?: number; p99?: number; max?: number; mean?: number }; throughput?: { mean?: number } } | undefined;
    return {
      task: t.name,
      'p50 µs': r?.latency?.p50 !== undefined ? (r.latency.p50 * 1000).toFixed(2) : '?',
      'p99 µs': r?.latency?.p99 !== undefined ? (r.latency.p99 * 1000).toFixed(2) : '?',
      'max µs': r?.latency?.max !== undefined ? (r.latency.max * 1000).toFixed(2) : '?',
      'updates/s': r?.throughput?.mean !== undefined ? Math.round(r.throughput.mean) : '?',
    };
  }),
);
