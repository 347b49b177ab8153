/**
 * The deshred watch against the localnet's SubscribeDeshred, over both transports: a transaction touching a
 * watched account is reported with its signature and slot (the airdrop's recipient is in its accounts); one not
 * touching it is not (proven by the pong of a later filter write, which the server sends after everything
 * before it); a dropped stream (UNAVAILABLE) is reopened with the filter, and reports again. With an `x-token`
 * server: the right token opens, a wrong one is UNAUTHENTICATED and waits the longest delay before retrying.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Connection, Keypair, LAMPORTS_PER_SOL } from '@solana/web3.js';
import { startLocalnet, type Localnet } from '../../fixtures/localnet/start-localnet.js';
import { DeshredWatch } from './deshred-watch.js';
import { createDeshredClient } from './geyser-deshred.js';
import { GrpcStatus } from './grpc-status.js';

let net: Localnet;
let conn: Connection;

before(async () => {
  net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, slotMs: 100, landingDelayMs: 150 });
  conn = new Connection(net.rpcUrl, 'confirmed');
});
after(async () => {
  await net?.stop();
});

/** Polls `ok` every 20 ms, up to 10 s. */
async function until(what: string, ok: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(ok(), what);
}

for (const transport of ['napi', 'grpc-js'] as const) {
  test(`${transport}: watched accounts' transactions are reported; a dropped stream is reopened with its filter`, async () => {
    const seen = new Map<string, number>();
    const watch = new DeshredWatch({
      connect: () => createDeshredClient(transport, { url: net.grpcUrl }),
      onTransaction: (s, slot) => seen.set(s, slot),
      firstBackoffMs: 50,
      ackTimeoutMs: 10_000,
    });
    try {
      watch.start();
      await until('open', () => watch.open);
      const a = Keypair.generate().publicKey;
      const b = Keypair.generate().publicKey;
      await watch.setAccounts([a.toBase58()]);
      const sigA = await conn.requestAirdrop(a, LAMPORTS_PER_SOL);
      await until('reported', () => seen.has(sigA));
      assert.ok(seen.get(sigA)! >= 300_000_000, 'its slot');
      const sigB = await conn.requestAirdrop(b, LAMPORTS_PER_SOL);
      await watch.sync();
      assert.equal(seen.has(sigB), false, 'not watched');

      const connects = watch.stats.connects;
      assert.ok(net.geyser.dropStreams() >= 1);
      await until('reopened', () => watch.stats.connects > connects && watch.open);
      assert.equal(watch.stats.lastStatus, GrpcStatus.UNAVAILABLE);
      // Only a barrier: the filter itself was written by the reconnect.
      await watch.sync();
      assert.deepEqual(watch.watched, [a.toBase58()]);
      const again = await conn.requestAirdrop(a, LAMPORTS_PER_SOL);
      await until('reported after the reconnect', () => seen.has(again));
    } finally {
      watch.close();
    }
  });
}

test('x-token: sent on both transports; a wrong one is UNAUTHENTICATED and retried after the longest wait', async () => {
  const guarded = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, slotMs: 100, xToken: 'right-token' });
  const watches: DeshredWatch[] = [];
  const watch = (transport: 'napi' | 'grpc-js', xToken: string): DeshredWatch => {
    const w = new DeshredWatch({ connect: () => createDeshredClient(transport, { url: guarded.grpcUrl, xToken }), onTransaction: () => undefined, maxBackoffMs: 60_000 });
    watches.push(w);
    w.start();
    return w;
  };
  try {
    for (const transport of ['napi', 'grpc-js'] as const) {
      const good = watch(transport, 'right-token');
      const bad = watch(transport, 'wrong-token');
      await until(`${transport}: open with the right token`, () => good.open);
      await until(`${transport}: refused with a wrong one`, () => bad.stats.errors > 0);
      assert.equal(bad.stats.lastStatus, GrpcStatus.UNAUTHENTICATED, transport);
      assert.equal(bad.stats.lastDelayMs, 60_000, transport);
      assert.equal(good.stats.errors, 0, transport);
    }
  } finally {
    watches.forEach((w) => w.close());
    await guarded.stop();
  }
});
