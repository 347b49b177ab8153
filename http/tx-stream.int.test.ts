/**
 * The transaction lifecycle on the real service over the localnet, through HTTP only: `POST /v1/send` of a signed
 * transfer, then `GET /v1/stream/tx` (without `signatures=`: what the key submitted) shows `landed` (from the Geyser
 * deshred stream; the localnet lands it 400 ms before it is processed), `processed`, `confirmed`, `finalized` (from
 * the Geyser Subscribe stream) in that order with the spec's payload, every one `source: 'geyser'`, and
 * `GET /v1/tx/:signature` agrees; a stream listing a
 * signature sent straight to the node (not through the service) gets its history replayed and its later events; a
 * transaction that fails on chain ends `failed`; bad lists are 400 before any stream opens.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Connection, Keypair, LAMPORTS_PER_SOL, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import bs58 from 'bs58';
import { startServiceUnderTest, TEST_DEMO_KEY, type ServiceUnderTest } from './testing/service-under-test.js';
import { openSse, type SseEvent, type SseReader } from './testing/sse-reader.js';
import { eventually } from './testing/wait.js';

let sut: ServiceUnderTest;
let conn: Connection;
const payer = Keypair.generate();
const KEY = { 'x-api-key': TEST_DEMO_KEY };
const open: SseReader[] = [];

before(async () => {
  sut = await startServiceUnderTest();
  // Why: the landed signal then comes visibly before processed (0 in process by default: both at once).
  // 400 ms between the landed signal and processed visibility: room for a loaded deshred stream to deliver landed
  // before the first status poll can see the transaction processed (then landed would be implied by the poll).
  sut.net.ledger.landingDelayMs = 400;
  await eventually(() => assert.ok(sut.svc.txSignals?.watching, 'geyser streams open'));
  conn = new Connection(sut.net.rpcUrl, 'confirmed');
  const sig = await conn.requestAirdrop(payer.publicKey, 5 * LAMPORTS_PER_SOL);
  for (let i = 0; i < 200; i++) {
    const { value } = await conn.getSignatureStatuses([sig]);
    if (value[0]?.confirmationStatus === 'confirmed' || value[0]?.confirmationStatus === 'finalized') break;
    await new Promise((r) => setTimeout(r, 50));
  }
});
after(async () => {
  open.forEach((s) => s.close());
  await sut?.stop();
});

async function signedTransfer(lamports: number): Promise<{ base64: string; signature: string }> {
  const message = new TransactionMessage({
    payerKey: payer.publicKey,
    recentBlockhash: (await conn.getLatestBlockhash()).blockhash,
    instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports })],
  }).compileToV0Message();
  const tx = new VersionedTransaction(message);
  tx.sign([payer]);
  return { base64: Buffer.from(tx.serialize()).toString('base64'), signature: bs58.encode(tx.signatures[0]!) };
}

async function stream(query = ''): Promise<SseReader> {
  const s = await openSse(`${sut.base}/v1/stream/tx${query}`, KEY);
  open.push(s);
  return s;
}

/** Events per reader and signature, kept when another signature's events are being waited for. */
const seen = new Map<SseReader, Map<string, SseEvent[]>>();

/** Events of `signature` on `s` up to the first of `until` (ready frames skipped; other signatures' kept for later). */
async function eventsOf(s: SseReader, signature: string, until: readonly string[]): Promise<SseEvent[]> {
  let bySig = seen.get(s);
  if (!bySig) seen.set(s, (bySig = new Map()));
  const got = (): SseEvent[] => bySig.get(signature) ?? [];
  while (!got().some((e) => until.includes(e.event))) {
    const e = await s.next(20_000);
    if (e.event === 'ready') continue;
    const sig = (e.data as { signature: string }).signature;
    bySig.set(sig, [...(bySig.get(sig) ?? []), e]);
  }
  const all = got();
  return all.slice(0, all.findIndex((e) => until.includes(e.event)) + 1);
}

test('a transaction sent through the service: its key\'s stream shows landed (geyser), processed, confirmed, finalized; GET /v1/tx agrees', async () => {
  const s = await stream();
  assert.equal(s.status, 200);
  const t = await signedTransfer(1_000_000);
  const res = await fetch(`${sut.base}/v1/send`, { method: 'POST', headers: { ...KEY, 'content-type': 'application/json' }, body: JSON.stringify({ transaction: t.base64 }) });
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { status: 'sent', signature: t.signature });
  const evs = await eventsOf(s, t.signature, ['finalized', 'failed']);
  assert.deepEqual(evs.map((e) => e.event), ['landed', 'processed', 'confirmed', 'finalized']);
  assert.deepEqual(evs.map((e) => (e.data as { source: string }).source), ['geyser', 'geyser', 'geyser', 'geyser'], 'every stage from the Geyser streams');
  assert.equal((evs[1]!.data as { slot: number }).slot, (evs[0]!.data as { slot: number }).slot, 'landed in the slot it was processed in');
  for (const e of evs) {
    const d = e.data as Record<string, unknown>;
    assert.deepEqual(Object.keys(d), ['type', 'signature', 'slot', 'source', 'err']);
    assert.equal(d.type, e.event);
    assert.equal(d.err, null);
    assert.ok(typeof d.slot === 'number' && d.slot > 0);
  }
  const status = (await (await fetch(`${sut.base}/v1/tx/${t.signature}`, { headers: KEY })).json()) as { status: string; slot: number };
  assert.equal(status.status, 'finalized');
  assert.equal(status.slot, (evs.at(-1)!.data as { slot: number }).slot);
});

test('signatures=: a transaction sent straight to the node is followed, its past replayed; a failure ends failed', async () => {
  const t = await signedTransfer(2_000_000);
  await conn.sendRawTransaction(Buffer.from(t.base64, 'base64'));
  const bad = await signedTransfer(100 * LAMPORTS_PER_SOL);
  await conn.sendRawTransaction(Buffer.from(bad.base64, 'base64'), { skipPreflight: true });
  const s = await stream(`?signatures=${t.signature},${bad.signature}`);
  assert.equal(s.status, 200);
  const ready = await s.next(5000);
  assert.equal(ready.event, 'ready');
  assert.deepEqual((ready.data as { signatures: string[] }).signatures, [t.signature, bad.signature]);
  const good = await eventsOf(s, t.signature, ['finalized']);
  assert.deepEqual(good.map((e) => e.event), ['processed', 'confirmed', 'finalized']);
  assert.deepEqual(good.map((e) => (e.data as { source: string }).source), ['poll', 'poll', 'poll'], 'not a submission of the service: polled');
  // A second stream on the same, now finished, signature gets its whole history at once.
  const late = await stream(`?signatures=${t.signature}`);
  assert.deepEqual((await eventsOf(late, t.signature, ['finalized'])).map((e) => e.event), ['processed', 'confirmed', 'finalized']);
  const failed = await eventsOf(s, bad.signature, ['failed', 'finalized']);
  assert.equal(failed.at(-1)!.event, 'failed');
  assert.ok(typeof (failed.at(-1)!.data as { err: unknown }).err === 'string');
});

test('bad signature lists are 400 before any stream opens', async () => {
  for (const q of ['?signatures=', '?signatures=nope', `?signatures=${Array.from({ length: 101 }, (_, i) => bs58.encode(new Uint8Array(64).fill(i + 1))).join(',')}`]) {
    const r = await fetch(`${sut.base}/v1/stream/tx${q}`, { headers: KEY });
    assert.equal(r.status, 400, q.slice(0, 40));
    assert.equal(((await r.json()) as { code: string }).code, 'INVALID_REQUEST');
  }
});
