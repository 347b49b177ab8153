import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { RpcClient } from './rpc-client.js';

/** Answers each JSON-RPC request with `answer(request, n)` (n counts requests), written as it says. */
async function rpcServer(answer: (req: { method: string; params: unknown[] }, n: number, res: ServerResponse) => void): Promise<{ url: string; server: Server; count: () => number }> {
  let n = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => answer(JSON.parse(Buffer.concat(chunks).toString('utf8')) as { method: string; params: unknown[] }, n++, res));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, count: () => n };
}

const account = (i: number) => ({
  pubkey: `Acc${i}`,
  account: { data: [Buffer.from([i, i + 1, i + 2, 255]).toString('base64'), 'base64'], executable: false, lamports: 1000 + i, owner: i % 2 ? 'OwnerB' : 'OwnerA', rentEpoch: 18446744073709551615, space: 4 },
});

/** A getProgramAccounts answer with `count` accounts, written in small pieces with pauses (a streamed body). */
function streamAnswer(res: ServerResponse, count: number, contextFirst = true): void {
  const value = `[${Array.from({ length: count }, (_, i) => JSON.stringify(account(i))).join(',')}]`;
  const context = '{"apiVersion":"2.2.1","slot":4242}';
  const body = contextFirst ? `{"jsonrpc":"2.0","result":{"context":${context},"value":${value}},"id":1}` : `{"jsonrpc":"2.0","result":{"value":${value},"context":${context}},"id":1}`;
  res.writeHead(200, { 'content-type': 'application/json' });
  let at = 0;
  const step = () => {
    if (at >= body.length) return void res.end();
    res.write(body.slice(at, at + 37));
    at += 37;
    setImmediate(step);
  };
  step();
}

test('getProgramAccountsPaged hands over pages as the body streams; data shares one buffer per page', async () => {
  const srv = await rpcServer((_req, _n, res) => streamAnswer(res, 10));
  try {
    const pages: { size: number; slot: bigint; buffers: Set<ArrayBufferLike> }[] = [];
    const seen: { address: string; owner: string; lamports: bigint; data: number[] }[] = [];
    const slot = await new RpcClient(srv.url).getProgramAccountsPaged(
      'Prog',
      [{ dataSize: 4 }],
      'confirmed',
      (page, at) => {
        pages.push({ size: page.length, slot: at, buffers: new Set(page.map((a) => a.data.buffer)) });
        for (const a of page) {
          seen.push({ address: a.address, owner: a.owner, lamports: a.lamports, data: [...a.data] });
        }
      },
      4,
    );
    assert.equal(slot, 4242n);
    assert.deepEqual(pages.map((p) => [p.size, p.slot, p.buffers.size]), [[4, 4242n, 1], [4, 4242n, 1], [2, 4242n, 1]]);
    assert.deepEqual(seen, Array.from({ length: 10 }, (_, i) => ({ address: `Acc${i}`, owner: i % 2 ? 'OwnerB' : 'OwnerA', lamports: BigInt(1000 + i), data: [i, i + 1, i + 2, 255] })));
    assert.equal(srv.count(), 1);
  } finally {
    srv.server.close();
  }
});

test('pages read before the context wait for its slot; getProgramAccounts gathers the pages', async () => {
  const srv = await rpcServer((_req, _n, res) => streamAnswer(res, 5, false));
  try {
    const slots: bigint[] = [];
    await new RpcClient(srv.url).getProgramAccountsPaged('Prog', [], 'confirmed', (_p, at) => slots.push(at), 2);
    assert.deepEqual(slots, [4242n, 4242n, 4242n]);
    const all = await new RpcClient(srv.url).getProgramAccounts('Prog', []);
    assert.equal(all.slot, 4242n);
    assert.deepEqual(all.value.map((a) => a.address), ['Acc0', 'Acc1', 'Acc2', 'Acc3', 'Acc4']);
  } finally {
    srv.server.close();
  }
});

test('a 5xx or a body cut midway is retried (pages handed over again); an RPC error and a receiver error are not', async () => {
  const flaky = await rpcServer((_req, n, res) => {
    if (n === 0) return void res.writeHead(503).end();
    if (n === 1) {
      // Half an answer, then the connection drops.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"jsonrpc":"2.0","result":{"context":{"slot":1},"value":[${JSON.stringify(account(0))},${JSON.stringify(account(1))},{"pub`);
      return void setTimeout(() => res.destroy(), 20);
    }
    streamAnswer(res, 3);
  });
  const failing = await rpcServer((_req, _n, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"jsonrpc":"2.0","error":{"code":-32010,"message":"excluded from account secondary indexes"},"id":1}');
  });
  try {
    const addresses: string[] = [];
    await new RpcClient(flaky.url, { retries: 3 }).getProgramAccountsPaged('Prog', [], 'confirmed', (p) => addresses.push(...p.map((a) => a.address)), 1);
    assert.equal(flaky.count(), 3);
    // The cut answer's first pages were handed over before it failed, then everything again.
    assert.deepEqual(addresses, ['Acc0', 'Acc1', 'Acc0', 'Acc1', 'Acc2']);
    await assert.rejects(new RpcClient(failing.url, { retries: 3 }).getProgramAccountsPaged('Prog', [], 'confirmed', () => undefined), { code: 'RPC_ERROR' });
    assert.equal(failing.count(), 1);
    const before = flaky.count();
    await assert.rejects(
      new RpcClient(flaky.url, { retries: 3 }).getProgramAccountsPaged('Prog', [], 'confirmed', () => {
        throw new Error('slab full');
      }),
      /slab full/,
    );
    assert.equal(flaky.count(), before + 1);
  } finally {
    flaky.server.close();
    failing.server.close();
  }
});

test('a body that goes silent longer than the timeout is given up and retried', async () => {
  const srv = await rpcServer((_req, n, res) => {
    if (n > 0) return streamAnswer(res, 2);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"jsonrpc":"2.0","result":{"context":{"slot":9},"value":[');
    // Never ends (the server closes it when the test does).
  });
  try {
    const got: string[] = [];
    await new RpcClient(srv.url, { retries: 1, timeoutMs: 200 }).getProgramAccountsPaged('Prog', [], 'confirmed', (p) => got.push(...p.map((a) => a.address)));
    assert.deepEqual(got, ['Acc0', 'Acc1']);
    assert.equal(srv.count(), 2);
  } finally {
    srv.server.closeAllConnections();
    srv.server.close();
  }
});

test('getMultipleAccountsPaged: chunks of 100 in flight together, each handed over with its start; getMultipleAccounts keeps the order', async () => {
  let inFlight = 0;
  let most = 0;
  const srv = await rpcServer((req, n, res) => {
    inFlight++;
    most = Math.max(most, inFlight);
    const keys = req.params[0] as string[];
    // Later chunks answer sooner: out of order, at different slots.
    setTimeout(() => {
      inFlight--;
      const value = keys.map((k) => (k.endsWith('7') ? null : { ...account(Number(k.slice(1)) % 200).account }));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', result: { context: { slot: 100 + n }, value }, id: 1 }));
    }, 40 - 10 * n);
  });
  try {
    const addresses = Array.from({ length: 350 }, (_, i) => `K${i}`);
    const starts: number[] = [];
    await new RpcClient(srv.url).getMultipleAccountsPaged(addresses, 'confirmed', (accounts, start) => {
      starts.push(start);
      accounts.forEach((a, j) => assert.equal(a?.address ?? null, addresses[start + j]!.endsWith('7') ? null : addresses[start + j]));
    }, 4);
    assert.deepEqual([...starts].sort((a, b) => a - b), [0, 100, 200, 300]);
    assert.notDeepEqual(starts, [0, 100, 200, 300]);
    assert.equal(most, 4);
    const r = await new RpcClient(srv.url).getMultipleAccounts(addresses);
    assert.deepEqual(r.value.map((a) => a?.address ?? null), addresses.map((a) => (a.endsWith('7') ? null : a)));
    assert.equal(r.slot, 104n);
  } finally {
    srv.server.close();
  }
});
