/**
 * `GET /v1/stream/accounts` on the real service over the localnet (no simulated traffic: only the test's swaps
 * write): a client listing a CPMM pool's vault gets the vault's update when a swap lands, with owner, lamports,
 * slot, write version and base64 data equal to the ledger's account; a client listing the CPMM program as owner
 * gets the pool account's update; a client listing an untouched account gets nothing; `dataOffset`/`dataLength`
 * cut the data; `commitment=confirmed` is served by its own stream; closing clients shrinks the service's one
 * Geyser filter; bad requests are 400 before any stream opens.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Keypair } from '@solana/web3.js';
import { CPMM_PROGRAM_ID } from '../engine/adapters/raydium-cpmm/layout.js';
import { startServiceUnderTest, TEST_DEMO_KEY, type ServiceUnderTest } from './testing/service-under-test.js';
import { openSse, type SseEvent, type SseReader } from './testing/sse-reader.js';
import { eventually } from './testing/wait.js';

let sut: ServiceUnderTest;
const KEY = { 'x-api-key': TEST_DEMO_KEY };
const open: SseReader[] = [];

before(async () => {
  sut = await startServiceUnderTest();
  assert.equal(sut.svc.accountStreams?.open('processed'), false, 'no Geyser stream before a client');
});
after(async () => {
  open.forEach((s) => s.close());
  await sut?.stop();
});

const pools = (): typeof sut.net.universe.pools => sut.net.universe.pools.filter((p) => !p.swapsDisabled && sut.net.ledger.getAccount(p.address)?.owner === CPMM_PROGRAM_ID);

/** Opens a stream and waits for `ready` and `subscribed` (the service's Geyser stream then filters for it, opened for the first client). */
async function stream(query: string): Promise<SseReader> {
  const s = await openSse(`${sut.base}/v1/stream/accounts?${query}`, KEY);
  open.push(s);
  assert.equal(s.status, 200);
  assert.equal((await s.next(5000)).event, 'ready');
  assert.equal((await s.next(5000)).event, 'subscribed');
  return s;
}

/** The next `account` event for `pubkey`. */
async function accountEvent(s: SseReader, pubkey: string): Promise<Record<string, unknown>> {
  for (;;) {
    const e: SseEvent = await s.next(5000);
    const d = e.data as Record<string, unknown>;
    if (e.event === 'account' && d.pubkey === pubkey) return d;
  }
}

/** The ledger's latest version of an account as the event gives it. */
function ledgerEvent(address: string): Record<string, unknown> {
  const v = sut.net.ledger.getAccount(address)!;
  return {
    pubkey: address,
    owner: v.owner,
    data: Buffer.from(v.data).toString('base64'),
    dataSize: v.data.length,
    lamports: v.lamports.toString(),
    slot: Number(v.slot),
    writeVersion: v.writeVersion.toString(),
    executable: v.executable,
    rentEpoch: v.rentEpoch.toString(),
  };
}

test('a listed vault, an owner, and an unrelated account: each client gets what it asked for', async () => {
  const pool = pools()[0]!;
  const byVault = await stream(`accounts=${pool.vaultA}`);
  const byOwner = await stream(`owners=${CPMM_PROGRAM_ID}&apiKey=${TEST_DEMO_KEY}`);
  const other = await stream(`accounts=${Keypair.generate().publicKey.toBase58()}`);
  const sliced = await stream(`accounts=${pool.vaultA}&dataOffset=64&dataLength=8`);
  const out = sut.net.simulator.swapNow(pool.address, true, pool.reserveA / 1000n);
  assert.equal(out.quote.status, 'OK');

  const vault = await accountEvent(byVault, pool.vaultA);
  const { txnSignature, ...rest } = vault;
  assert.deepEqual(rest, ledgerEvent(pool.vaultA));
  assert.equal(txnSignature, out.signature);
  assert.equal(rest.slot, Number(out.slot));

  const poolEv = await accountEvent(byOwner, pool.address);
  const { txnSignature: poolSig, ...poolRest } = poolEv;
  assert.deepEqual(poolRest, ledgerEvent(pool.address));
  assert.equal(poolRest.owner, CPMM_PROGRAM_ID);
  assert.equal(poolSig, out.signature);

  const cut = await accountEvent(sliced, pool.vaultA);
  assert.equal(cut.data, Buffer.from(sut.net.ledger.getAccount(pool.vaultA)!.data.subarray(64, 72)).toString('base64'), 'the amount field of the token account');
  assert.equal(cut.dataSize, 165);

  assert.equal(await other.quietFor(500), true, 'an untouched account sends nothing');
  assert.equal(byOwner.buffered.filter((e) => e.event === 'account' && (e.data as { owner: string }).owner !== CPMM_PROGRAM_ID).length, 0);
});

test('commitment=confirmed has its own stream and delivers once the slot is confirmed', async () => {
  const pool = pools()[1]!;
  const s = await stream(`accounts=${pool.vaultB}&commitment=confirmed`);
  assert.deepEqual(sut.svc.accountStreams!.watched('confirmed').accounts, [pool.vaultB]);
  const out = sut.net.simulator.swapNow(pool.address, false, pool.reserveB / 1000n);
  const ev = await accountEvent(s, pool.vaultB);
  assert.equal(ev.slot, Number(out.slot));
  assert.ok(sut.net.ledger.slotAt('confirmed') >= out.slot!, 'delivered at confirmed');
});

test('closing clients shrinks the service\'s filter', async () => {
  const pool = pools()[2]!;
  const streams = sut.svc.accountStreams!;
  const a = await stream(`accounts=${pool.vaultA},${pool.vaultB}`);
  const b = await stream(`accounts=${pool.vaultB}&owners=${pool.vaultA}`);
  assert.ok(streams.watched('processed').accounts.includes(pool.vaultA));
  a.close();
  await eventually(() => assert.ok(!streams.watched('processed').accounts.includes(pool.vaultA)));
  assert.ok(streams.watched('processed').accounts.includes(pool.vaultB), 'still wanted by b');
  b.close();
  await eventually(() => assert.ok(!streams.watched('processed').accounts.includes(pool.vaultB)));
  assert.ok(!streams.watched('processed').owners.includes(pool.vaultA));
});

test('bad requests are 400 INVALID_REQUEST before a stream opens', async () => {
  const many = Array.from({ length: 101 }, () => Keypair.generate().publicKey.toBase58()).join(',');
  const owners = Array.from({ length: 11 }, () => Keypair.generate().publicKey.toBase58()).join(',');
  for (const q of ['', 'accounts=notakey', `accounts=${many}`, `owners=${owners}`, `owners=${CPMM_PROGRAM_ID}&commitment=finalized`, `owners=${CPMM_PROGRAM_ID}&dataLength=65537`, `owners=${CPMM_PROGRAM_ID}&dataOffset=-1`]) {
    const res = await fetch(`${sut.base}/v1/stream/accounts?${q}`, { headers: KEY });
    assert.equal(res.status, 400, q.slice(0, 80));
    assert.equal(((await res.json()) as { code: string }).code, 'INVALID_REQUEST');
  }
});
