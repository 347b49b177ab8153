/**
 * The deshred watch against the localnet's SubscribeDeshred, over both transports: a transaction touching a
 * watched account is reported with its signature and slot (the airdrop's recipient is in its accounts); one not
 * touching it is not (proven by the pong of a later filter write, which the server sends after everything
 * before it); a dropped stream (UNAVAILABLE) is reopened with the filter, and reports again.
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
