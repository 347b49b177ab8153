/**
 * Replay mode throughput: the localnet replay server (own process, `bench/replay-feed.ts`) writes N pre-encoded
 * CPMM swap frames (pool + both vaults per swap, real states, slot statuses between slots) to one subscriber:
 * a raw HTTP/2 reader that only counts frames (the server's write ceiling), then the service's transports, with
 * and without the real ingest applying every update. Baseline from the same run: the localnet's live Geyser
 * server carrying the same swaps written to its ledger. Every row starts a fresh server process.
 * Run: node dist/bench/replay-throughput.bench.js [pools] [frames] [swapsPerSlot]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http2 from 'node:http2';
import { fileURLToPath } from 'node:url';
import { ADAPTERS } from '../engine/adapters/registry.js';
import type { GeyserTransportName } from '../engine/chain/geyser-transport.js';
import { yellowstone } from '../engine/chain/yellowstone.js';
import type { AccountUpdate } from '../engine/ingest/account-update.js';
import { IngestCore } from '../engine/ingest/ingest-core.js';
import { buildSubscribeRequest } from '../engine/ingest/subscription.js';
import { rentExemptLamports } from '../fixtures/localnet/ledger/ledger.js';
import { grpcFrames } from '../fixtures/localnet/replay/wire.js';
import { buildUniverse } from '../fixtures/localnet/universe/universe.js';
import { MintTable } from '../engine/slab/mint-table.js';
import { PoolSlab } from '../engine/slab/pool-slab.js';
import { consumeGeyser } from './geyser-consumer.js';

const [pools = 200, count = 200_000, swapsPerSlot = 100] = process.argv.slice(2).map(Number);
const universe = buildUniverse({ pools });
const snapshot: AccountUpdate[] = universe.accounts.map((a) => ({
  address: a.address,
  owner: a.owner ?? '11111111111111111111111111111111',
  lamports: a.lamports ?? rentExemptLamports(a.data.length),
  data: a.data,
  slot: 1n,
  writeVersion: 0n,
}));

interface Feed {
  readonly port: number;
  readonly frames?: number;
  readonly accountFrames: number;
  readonly buildMs?: number;
  /** Resolves with the server's own stats once it has written the replay (replay mode). */
  readonly written: Promise<{ messages: number; bytes: number; ms: number }>;
  readonly child: ChildProcess;
}

async function startFeed(mode: 'replay' | 'live'): Promise<Feed> {
  const file = fileURLToPath(new URL('./replay-feed.js', import.meta.url));
  const child = spawn(process.execPath, [file, mode, String(pools), String(count), String(swapsPerSlot)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let buf = '';
  let onWritten: (s: { messages: number; bytes: number; ms: number }) => void = () => undefined;
  const written = new Promise<{ messages: number; bytes: number; ms: number }>((r) => (onWritten = r));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      buf += String(chunk);
      const ready = /FEED_READY (\{.*\})\n/.exec(buf);
      if (ready) {
        buf = buf.slice(ready.index + ready[0].length);
        resolve({ ...(JSON.parse(ready[1]!) as Omit<Feed, 'written' | 'child'>), written, child });
      }
      const done = /REPLAY_WRITTEN (\{.*\})\n/.exec(buf);
      if (done) onWritten(JSON.parse(done[1]!) as { messages: number; bytes: number; ms: number });
    });
    child.once('exit', (code) => reject(new Error(`feed exited with ${code}`)));
  });
}

/** The ingest's own request, as bytes of one gRPC message. */
function ingestRequestFrame(): Buffer {
  const core = new IngestCore({ slab: PoolSlab.create(pools + 16, pools + 16), mints: MintTable.create(2 * pools + 16, 2 * pools + 16), adapters: ADAPTERS, onChange: () => undefined });
  core.applySnapshot(snapshot, 1n);
  return grpcFrames([yellowstone.SubscribeRequest.encode(buildSubscribeRequest(ADAPTERS, core.watchedAccounts())).finish()]);
}

/**
 * Reads the stream over raw HTTP/2 with 16 MiB windows and only counts gRPC messages: no decode at all. Done after
 * `expected` messages, or once the stream is idle for `idleMs` (the live server's count is not known up front).
 */
async function rawCount(port: number, expected: number, idleMs = 1000): Promise<{ messages: number; seconds: number }> {
  const window = 16 * 1024 * 1024;
  const session = http2.connect(`http://127.0.0.1:${port}`, { settings: { initialWindowSize: window } });
  session.on('connect', () => session.setLocalWindowSize(window));
  const req = session.request({ ':method': 'POST', ':path': '/geyser.Geyser/Subscribe', 'content-type': 'application/grpc', te: 'trailers' });
  req.write(ingestRequestFrame());
  let messages = 0;
  let first = 0;
  let last = 0;
  // Bytes left of the current message, or -k while k bytes of its 5-byte prefix are still missing.
  let need = -5;
  const prefix = Buffer.alloc(5);
  await new Promise<void>((resolve) => {
    let idle: NodeJS.Timeout | undefined;
    req.on('data', (chunk: Buffer) => {
      if (first === 0) first = performance.now();
      clearTimeout(idle);
      idle = setTimeout(resolve, idleMs);
      let o = 0;
      while (o < chunk.length) {
        if (need < 0) {
          const take = Math.min(-need, chunk.length - o);
          chunk.copy(prefix, 5 + need, o, o + take);
          o += take;
          need += take;
          if (need === 0) need = prefix.readUInt32BE(1);
          if (need === 0) need = -5;
          continue;
        }
        const take = Math.min(need, chunk.length - o);
        o += take;
        need -= take;
        if (need === 0) {
          messages++;
          need = -5;
        }
      }
      last = performance.now();
      if (messages >= expected) resolve();
    });
    req.on('close', () => resolve());
  });
  req.close();
  session.close();
  return { messages, seconds: (last - first) / 1000 };
}

const rows: Record<string, string | number>[] = [];
const rate = (n: number, s: number): number => Math.round(n / s);

async function replayRow(consumer: 'raw HTTP/2 (count only)' | GeyserTransportName, apply: boolean): Promise<void> {
  const feed = await startFeed('replay');
  let messages: number;
  let seconds: number;
  let applied: number | string = '-';
  if (consumer === 'raw HTTP/2 (count only)') {
    ({ messages, seconds } = await rawCount(feed.port, feed.frames!));
  } else {
    const r = await consumeGeyser({ transport: consumer, url: `http://127.0.0.1:${feed.port}`, snapshot, pools: universe.pools.length, expectedAccounts: feed.accountFrames, apply });
    ({ messages, seconds } = r);
    if (apply) applied = rate(r.applied, r.seconds);
  }
  const server = await feed.written;
  feed.child.kill();
  rows.push({
    server: 'replay',
    consumer: `${consumer}${apply ? ' + ingest' : consumer.startsWith('raw') ? '' : ' (decode only)'}`,
    'messages received': messages,
    'received msg/s': rate(messages, seconds),
    'server written msg/s': rate(server.messages, server.ms / 1000),
    'updates applied/s': applied,
    'MB/s': Math.round(server.bytes / 1e6 / (server.ms / 1000)),
  });
}

async function liveRawRow(): Promise<void> {
  const feed = await startFeed('live');
  const { messages, seconds } = await rawCount(feed.port, Number.POSITIVE_INFINITY);
  feed.child.kill();
  rows.push({
    server: 'live Geyser (baseline)',
    consumer: 'raw HTTP/2 (count only)',
    'messages received': messages,
    'received msg/s': rate(messages, seconds),
    'server written msg/s': '-',
    'updates applied/s': '-',
    'MB/s': '-',
  });
}

async function liveRow(transport: GeyserTransportName, apply: boolean): Promise<void> {
  const feed = await startFeed('live');
  const r = await consumeGeyser({ transport, url: `http://127.0.0.1:${feed.port}`, snapshot, pools: universe.pools.length, expectedAccounts: feed.accountFrames, apply });
  feed.child.kill();
  rows.push({
    server: 'live Geyser (baseline)',
    consumer: `${transport}${apply ? ' + ingest' : ' (decode only)'}`,
    'messages received': r.messages,
    'received msg/s': rate(r.messages, r.seconds),
    'server written msg/s': '-',
    'updates applied/s': apply ? rate(r.applied, r.seconds) : '-',
    'MB/s': '-',
  });
}

const buildFeed = await startFeed('replay');
const build = { frames: buildFeed.frames, accountFrames: buildFeed.accountFrames, buildMs: buildFeed.buildMs };
buildFeed.child.kill();
await replayRow('raw HTTP/2 (count only)', false);
await replayRow('grpc-js', false);
await replayRow('grpc-js', true);
await replayRow('napi', true);
await liveRawRow();
await liveRow('grpc-js', false);
await liveRow('grpc-js', true);
await liveRow('napi', true);
console.log(`universe: ${universe.pools.length} pools; replay: ${build.accountFrames} account frames, ${build.frames} messages with slot statuses, built and encoded in ${build.buildMs} ms`);
console.table(rows);
process.exit(0);
