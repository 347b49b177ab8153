/**
 * The Geyser sources on the localnet, with the real watches (napi deshred, grpc-js stages: both transports in one
 * run), a real tracker polling the localnet's RPC, and submissions made the way the services make them (`expect`
 * before sending, `follow(sig, true)` after): a transfer goes landed, processed, confirmed, finalized, every event
 * from Geyser, in the slot it landed in; a transfer that fails on chain is `failed` from the stream with the node's
 * error, before any poll could see it (the first poll of a streamed submission is 2 s out); with the streams stalled
 * (open but silent, the localnet's fault knob), polling reports every stage once the stage stream is no longer live.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Connection, Keypair, LAMPORTS_PER_SOL, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { startLocalnet, type Localnet } from '../../fixtures/localnet/start-localnet.js';
import { DeshredWatch } from '../chain/deshred-watch.js';
import { createGeyserTransport } from '../chain/geyser-factory.js';
import { createDeshredClient } from '../chain/geyser-deshred.js';
import { RpcClient } from '../chain/rpc-client.js';
import { TxStageWatch } from '../chain/tx-stage-watch.js';
import { TxTracker, type TxEvent } from '../tx/tx-tracker.js';
import { GeyserSignals } from './geyser-signals.js';

let net: Localnet;
let conn: Connection;
let tracker: TxTracker;
let signals: GeyserSignals;
const events: TxEvent[] = [];
const payer = Keypair.generate();

before(async () => {
  net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, slotMs: 100, finalizeLag: 4, landingDelayMs: 100 });
  conn = new Connection(net.rpcUrl, 'confirmed');
  tracker = new TxTracker(new RpcClient(net.rpcUrl, { retries: 0, timeoutMs: 5000 }));
  tracker.subscribe((e) => events.push(e));
  signals = new GeyserSignals(
    tracker,
    (onTransaction) => new DeshredWatch({ connect: () => createDeshredClient('napi', { url: net.grpcUrl }), onTransaction }),
    (h) => new TxStageWatch({ connect: () => createGeyserTransport('grpc-js', { url: net.grpcUrl }), ...h }),
  );
  signals.start();
  for (let i = 0; i < 500 && !signals.watching; i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(signals.watching, 'both streams open');
  const sig = await conn.requestAirdrop(payer.publicKey, 5 * LAMPORTS_PER_SOL);
  for (let i = 0; i < 500 && (await conn.getSignatureStatuses([sig])).value[0]?.confirmationStatus !== 'finalized'; i++) await new Promise((r) => setTimeout(r, 20));
});
after(async () => {
  signals?.close();
  tracker?.close();
  await net?.stop();
});

/** A signed transfer of `lamports` from the payer, and its signature. */
async function transfer(lamports: number): Promise<{ wire: Buffer; signature: string }> {
  const { blockhash } = await conn.getLatestBlockhash();
  const tx = new VersionedTransaction(
    new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports })] }).compileToV0Message(),
  );
  tx.sign([payer]);
  return { wire: Buffer.from(tx.serialize()), signature: bs58.encode(tx.signatures[0]!) };
}

/** Submits as the services do: the filter first, then the send, then followed as an own submission. */
async function submit(t: { wire: Buffer; signature: string }): Promise<void> {
  await signals.expect(t.signature, payer.publicKey.toBase58());
  await conn.sendRawTransaction(t.wire, { skipPreflight: true });
  tracker.follow(t.signature, true);
}

/** The events of `signature` once one of `until` came (10 s at most). */
async function lifecycle(signature: string, until: readonly string[]): Promise<TxEvent[]> {
  const of = (): TxEvent[] => events.filter((e) => e.signature === signature);
  for (let i = 0; i < 500 && !of().some((e) => until.includes(e.type)); i++) await new Promise((r) => setTimeout(r, 20));
  return of();
}

test('a submission: landed, processed, confirmed, finalized, every one from Geyser, in its slot', async () => {
  const t = await transfer(1_000_000);
  await submit(t);
  const evs = await lifecycle(t.signature, ['finalized', 'failed']);
  assert.deepEqual(evs.map((e) => `${e.type}:${e.source}`), ['landed:geyser', 'processed:geyser', 'confirmed:geyser', 'finalized:geyser']);
  const status = (await conn.getSignatureStatuses([t.signature])).value[0]!;
  for (const e of evs) assert.equal(e.slot, status.slot, `${e.type} in the slot it landed in`);
  assert.equal(signals.placed, 0, 'nothing left waiting on a slot');
});

test('a submission that fails on chain: failed from the stream, with the node\'s error', async () => {
  const t = await transfer(100 * LAMPORTS_PER_SOL);
  await submit(t);
  const evs = await lifecycle(t.signature, ['finalized', 'failed']);
  assert.deepEqual(evs.map((e) => `${e.type}:${e.source}`), ['landed:geyser', 'failed:geyser']);
  const status = (await conn.getSignatureStatuses([t.signature])).value[0]!;
  assert.equal(evs[1]!.err, JSON.stringify(status.err));
  assert.equal(evs[1]!.err, '{"InstructionError":[0,{"Custom":1}]}');
  assert.equal(tracker.stats.late, 0, 'no poll had to fill in');
});

test('a stalled stream (open, silent): polling reports every stage, in order, once the stream is no longer live', async () => {
  const t = await transfer(2_000_000);
  net.geyser.stallStreams(8000);
  try {
    await submit(t);
    const evs = await lifecycle(t.signature, ['finalized', 'failed']);
    assert.deepEqual(evs.map((e) => `${e.type}:${e.source}`), ['landed:poll', 'processed:poll', 'confirmed:poll', 'finalized:poll']);
    assert.ok(tracker.stats.late >= 1, 'the poll\'s news was held for the stream, then reported');
  } finally {
    net.geyser.stallStreams(0);
  }
});
