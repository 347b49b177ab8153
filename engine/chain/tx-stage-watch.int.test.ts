/**
 * The stage watch against the localnet's Subscribe, over both transports: a transaction touching a watched account
 * is reported at processed with its slot, then that slot's confirmed and finalized statuses come; a failed one is
 * reported with its error exactly as `getSignatureStatuses` gives it (the Geyser bincode decoded to the JSON-RPC
 * shape); one not touching the filter is not (proven by the pong of a later write); a dropped stream is reopened
 * with its filter, and reports again.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Connection, Keypair, LAMPORTS_PER_SOL, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { startLocalnet, type Localnet } from '../../fixtures/localnet/start-localnet.js';
import { createGeyserTransport } from './geyser-factory.js';
import { GrpcStatus } from './grpc-status.js';
import { TxStageWatch } from './tx-stage-watch.js';

let net: Localnet;
let conn: Connection;

before(async () => {
  net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 0, slotMs: 100, finalizeLag: 4, landingDelayMs: 50 });
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
  test(`${transport}: processed with its slot, the slot's confirmed and finalized, a failure with its error; a dropped stream reopened`, async () => {
    const txs = new Map<string, { slot: number; err: string | null }>();
    const statuses = new Map<number, number[]>();
    const watch = new TxStageWatch({
      connect: () => createGeyserTransport(transport, { url: net.grpcUrl }),
      onTransaction: (s, slot, err) => txs.set(s, { slot, err }),
      onSlot: (slot, status) => statuses.set(slot, [...(statuses.get(slot) ?? []), status]),
      firstBackoffMs: 50,
      ackTimeoutMs: 10_000,
    });
    try {
      watch.start();
      await until('open', () => watch.open);
      await until('slot statuses flow without any account', () => statuses.size > 0);
      const payer = Keypair.generate();
      const other = Keypair.generate().publicKey;
      await watch.setAccounts([payer.publicKey.toBase58()]);
      const funded = await conn.requestAirdrop(payer.publicKey, LAMPORTS_PER_SOL);
      await until('reported', () => txs.has(funded));
      const { slot, err } = txs.get(funded)!;
      assert.equal(err, null);
      await until('its slot finalized', () => statuses.get(slot)?.includes(2) ?? false);
      assert.deepEqual(statuses.get(slot)!.filter((s) => s <= 2), [0, 1, 2], 'processed, confirmed, finalized in order');

      // A transfer of more than the payer holds fails on chain (System program: Custom(1)).
      const { blockhash } = await conn.getLatestBlockhash();
      const tx = new VersionedTransaction(
        new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: other, lamports: 10 * LAMPORTS_PER_SOL })] }).compileToV0Message(),
      );
      tx.sign([payer]);
      const failed = await conn.sendRawTransaction(tx.serialize(), { skipPreflight: true });
      await until('failure reported', () => txs.has(failed));
      const rpcStatus = (await conn.getSignatureStatuses([failed], { searchTransactionHistory: true })).value[0]!;
      assert.equal(txs.get(failed)!.err, JSON.stringify(rpcStatus.err), 'the same error as the node gives');
      assert.equal(txs.get(failed)!.err, '{"InstructionError":[0,{"Custom":1}]}');

      const unwatched = await conn.requestAirdrop(other, LAMPORTS_PER_SOL);
      for (let i = 0; i < 200 && (await conn.getSignatureStatuses([unwatched])).value[0] === null; i++) await new Promise((r) => setTimeout(r, 20));
      // Its transaction event comes `landingDelayMs` (50) after the node shows it; then the pong of a later write
      // proves the server sent everything before (requests are handled in order).
      await new Promise((r) => setTimeout(r, 150));
      await watch.sync();
      assert.equal(txs.has(unwatched), false, 'not watched');

      const connects = watch.stats.connects;
      assert.ok(net.geyser.dropStreams() >= 1);
      await until('reopened', () => watch.stats.connects > connects && watch.open);
      assert.equal(watch.stats.lastStatus, GrpcStatus.UNAVAILABLE);
      await watch.sync();
      const again = await conn.requestAirdrop(payer.publicKey, LAMPORTS_PER_SOL);
      await until('reported after the reconnect', () => txs.has(again));
      assert.equal(watch.live, true);
    } finally {
      watch.close();
    }
  });
}
