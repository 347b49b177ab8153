/**
 * The Yellowstone client beside the service, in its own process: subscribed to the swapped pool's accounts and
 * every slot status through the same transport as the service, it stamps each arrival with CLOCK_MONOTONIC
 * (`process.hrtime`) the moment its callback runs and reports it to the bench over IPC. In its own process its
 * stamps do not wait behind the bench's other work (the localnet runs in the bench's process).
 *
 * Forked with argv: <grpc url> <transport> <account,account,...>. Messages to the parent:
 * `{ kind: 'ready' }`, `{ kind: 'write', signature, ns }` per account write carrying a transaction signature,
 * `{ kind: 'confirmed', slot, ns }` per confirmed slot status (ns and slot as decimal strings).
 */
import bs58 from 'bs58';
import { createGeyserTransport } from '../../engine/chain/geyser-factory.js';
import { emptySubscribeRequest } from '../../engine/chain/geyser-transport.js';
import { CommitmentLevel, type SubscribeUpdate } from '../../engine/chain/yellowstone.js';

const [url, transportName, accounts] = process.argv.slice(2);
const transport = await createGeyserTransport(transportName as 'napi' | 'grpc-js', { url: url! });
const req = emptySubscribeRequest();
req.accounts.pool = { account: accounts!.split(','), owner: [], filters: [] };
req.slots.slots = { filterByCommitment: false };
req.commitment = CommitmentLevel.PROCESSED;
await transport.subscribe(req, {
  onUpdate: (u: SubscribeUpdate) => {
    const ns = process.hrtime.bigint();
    const sig = u.account?.account?.txnSignature;
    if (sig && sig.length > 0) process.send!({ kind: 'write', signature: bs58.encode(sig), ns: ns.toString() });
    else if (u.slot && u.slot.status === 1) process.send!({ kind: 'confirmed', slot: String(u.slot.slot), ns: ns.toString() });
  },
  onEnd: () => undefined,
});
process.send!({ kind: 'ready' });
process.on('message', (m) => {
  if (m === 'stop') {
    transport.close();
    process.exit(0);
  }
});
