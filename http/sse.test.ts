import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reloadLogLevel } from './log.js';
import { SseHub, sseFrame } from './sse.js';
import { FakeSseSocket } from './testing/fake-sse-socket.js';

process.env.LOG_LEVEL = 'silent';
reloadLogLevel();

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

function openOne(hub: SseHub): { sock: FakeSseSocket; client: ReturnType<SseHub['open']> } {
  const sock = new FakeSseSocket();
  let client!: ReturnType<SseHub['open']>;
  sock.cork(() => {
    client = hub.open(sock.socket, sseFrame('ready', { ts: 1 }), { 'access-control-allow-origin': '*' });
  });
  return { sock, client };
}

test('sseFrame writes event and one JSON data line', () => {
  assert.equal(sseFrame('price', { a: 'x\ny' }), 'event: price\ndata: {"a":"x\\ny"}\n\n');
});

test('open writes status, SSE headers and the first frame at once', () => {
  const hub = new SseHub({ heartbeatMs: 0 });
  const { sock } = openOne(hub);
  assert.equal(sock.status, '200 OK');
  const h = new Map(sock.headers);
  assert.equal(h.get('content-type'), 'text/event-stream');
  assert.equal(h.get('cache-control'), 'no-cache');
  assert.equal(h.get('x-accel-buffering'), 'no');
  assert.equal(h.get('access-control-allow-origin'), '*');
  assert.equal(sock.writes.length, 1);
  assert.match(sock.writes[0]!, /event: ready\ndata: \{"ts":1\}\n\n$/);
  assert.equal(hub.size, 1);
});

test('frames of one tick are coalesced into one corked write per client; one frame string shared', async () => {
  const hub = new SseHub({ heartbeatMs: 0 });
  const a = openOne(hub);
  const b = openOne(hub);
  const f1 = sseFrame('price', { p: 1 });
  const f2 = sseFrame('price', { p: 2 });
  hub.sendMany([a.client, b.client], 'm1', f1);
  hub.sendMany([a.client, b.client], 'm2', f2);
  assert.equal(a.sock.writes.length, 1, 'nothing written before the tick ends');
  await tick();
  for (const s of [a.sock, b.sock]) {
    assert.equal(s.writes.length, 2);
    assert.equal(s.writes[1], f1 + f2);
    assert.equal(s.uncorkedWrites, 0, 'every write corked');
  }
});

test('backpressure: latest frame per key kept, flushed on onWritable, bounded', async () => {
  const hub = new SseHub({ heartbeatMs: 0, maxPendingKeys: 3 });
  const { sock, client } = openOne(hub);
  sock.writable = false;
  hub.send(client, 'm1', 'A1');
  await tick();
  assert.equal(client.backpressured, true);
  hub.send(client, 'm1', 'A2');
  hub.send(client, 'm2', 'B1');
  hub.send(client, 'm1', 'A3');
  await tick();
  assert.equal(sock.writes.length, 2, 'no write while backpressured');
  assert.equal(client.pendingCount, 2);
  assert.equal(sock.drain(), true);
  assert.equal(sock.writes[2], 'B1A3', 'only the latest frame of m1 survives');
  assert.equal(client.backpressured, false);
  assert.equal(sock.uncorkedWrites, 0);

  sock.writable = false;
  hub.send(client, 'x', 'X');
  await tick();
  hub.send(client, 'k1', '1');
  hub.send(client, 'k2', '2');
  hub.send(client, 'k3', '3');
  assert.equal(hub.size, 1);
  hub.send(client, 'k4', '4'); // over the bound: slow consumer dropped
  assert.equal(hub.size, 0);
  assert.equal(sock.ended, true);
  assert.equal(client.closed, true);
});

test('remove (abort) forgets the client without touching the socket and runs close hooks once', async () => {
  const hub = new SseHub({ heartbeatMs: 0 });
  const { sock, client } = openOne(hub);
  let hooks = 0;
  hub.onClose(client, () => hooks++);
  hub.send(client, 'm', 'F');
  const before = sock.writes.length;
  hub.remove(client);
  hub.remove(client);
  await tick();
  assert.equal(hooks, 1);
  assert.equal(hub.size, 0);
  assert.equal(sock.writes.length, before);
  assert.equal(sock.ended, false);
  hub.send(client, 'm', 'G');
  await tick();
  assert.equal(sock.writes.length, before);
});

test('heartbeat sends { ts } to every client; close ends all streams', async () => {
  const hub = new SseHub({ heartbeatMs: 0, now: () => 1234 });
  const a = openOne(hub);
  const b = openOne(hub);
  hub.sendHeartbeat();
  await tick();
  assert.equal(a.sock.writes[1], 'event: heartbeat\ndata: {"ts":1234}\n\n');
  assert.equal(b.sock.writes[1], a.sock.writes[1]);
  hub.close();
  assert.ok(a.sock.ended && b.sock.ended);
  assert.equal(hub.size, 0);
});

test('the heartbeat timer fires on its period', async () => {
  const hub = new SseHub({ heartbeatMs: 20 });
  const { sock } = openOne(hub);
  await new Promise((r) => setTimeout(r, 70));
  hub.close();
  assert.ok(sock.writes.filter((w) => w.includes('event: heartbeat')).length >= 2);
});
