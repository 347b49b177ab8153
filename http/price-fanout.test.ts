import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reloadLogLevel } from './log.js';
import { PriceFanout } from './price-fanout.js';
import { SseHub, sseFrame } from './sse.js';
import { FAKE_MINTS, FakePriceService } from './testing/fake-price-service.js';
import { FakeSseSocket } from './testing/fake-sse-socket.js';

process.env.LOG_LEVEL = 'silent';
reloadLogLevel();

function subscriber(hub: SseHub, fanout: PriceFanout, svc: FakePriceService, includeOptimistic: boolean): FakeSseSocket {
  const sock = new FakeSseSocket();
  sock.cork(() => {
    const client = hub.open(sock.socket, sseFrame('ready', { ts: 1 }));
    fanout.add(client, [svc.resolve('SOL')!], { includeOptimistic, dedupThreshold: 0 });
  });
  return sock;
}

test('a change is on every subscribed socket when the change callback returns, not a turn later', () => {
  const svc = new FakePriceService();
  const hub = new SseHub({ heartbeatMs: 0 });
  const fanout = new PriceFanout(svc, hub);
  const withOpt = subscriber(hub, fanout, svc, true);
  const confirmedOnly = subscriber(hub, fanout, svc, false);
  svc.optimistic.set(FAKE_MINTS.SOL, 151);
  svc.push({ mints: [FAKE_MINTS.SOL], confirmed: false });
  assert.equal(withOpt.writes.length, 2, 'the optimistic frame is written synchronously');
  assert.match(withOpt.writes[1]!, /"confidence":"optimistic"/);
  assert.equal(withOpt.uncorkedWrites, 0);
  assert.equal(confirmedOnly.writes.length, 1, 'no optimistic frame for a confirmed-only client, and no empty write');
  svc.confirmed.set(FAKE_MINTS.SOL, 151);
  svc.push({ mints: [FAKE_MINTS.SOL], confirmed: true });
  assert.equal(confirmedOnly.writes.length, 2);
  assert.match(confirmedOnly.writes[1]!, /"confidence":"confirmed"/);
  // A change that touches no subscribed token writes nothing.
  svc.push({ mints: [FAKE_MINTS.WBTC], confirmed: true });
  assert.equal(confirmedOnly.writes.length, 2);
  assert.equal(withOpt.writes.length, 3);
  fanout.close();
  hub.close();
});
