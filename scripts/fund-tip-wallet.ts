/**
 * `make run` (localnet only): funds the bundle tip wallet of `POST /v1/swap` (also the authority and payer of the
 * address lookup tables `POST /v1/swap/build` makes) by an airdrop over the localnet's JSON-RPC, before the service
 * starts. Loads the key the service will load (`TIP_PAYER_SECRET_KEY`, else
 * `<DATA_DIR>/tip-payer-key.json`, generated here the first time) and tops it up to `TIP_WALLET_SOL` (default 10)
 * SOL. On mainnet there is no airdrop: the operator funds the wallet the service logs at start.
 */
import { join } from 'node:path';
import { loadTipPayerKey } from '../engine/tx/tip-payer-key.js';

const LAMPORTS_PER_SOL = 1_000_000_000n;

async function rpc<T>(url: string, method: string, params: unknown[]): Promise<T> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

async function main(): Promise<void> {
  const rpcUrl = process.env.RPC_URL ?? 'http://127.0.0.1:8899';
  const dataDir = process.env.DATA_DIR ?? join(process.cwd(), 'data');
  const target = BigInt(process.env.TIP_WALLET_SOL ?? '10') * LAMPORTS_PER_SOL;
  const address = loadTipPayerKey(dataDir, process.env.TIP_PAYER_SECRET_KEY || undefined).keypair.publicKey.toBase58();
  const balance = BigInt((await rpc<{ value: number }>(rpcUrl, 'getBalance', [address, { commitment: 'confirmed' }])).value);
  if (balance < target) {
    const sig = await rpc<string>(rpcUrl, 'requestAirdrop', [address, Number(target - balance)]);
    for (let i = 0; i < 100; i++) {
      const s = await rpc<{ value: ({ confirmationStatus?: string } | null)[] }>(rpcUrl, 'getSignatureStatuses', [[sig]]);
      const c = s.value[0]?.confirmationStatus;
      if (c === 'confirmed' || c === 'finalized') break;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  process.stdout.write(`tip wallet: ${address} (funded on the localnet)\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`fund-tip-wallet: ${(e as Error).message}\n`);
  process.exit(1);
});
