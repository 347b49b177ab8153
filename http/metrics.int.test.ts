/**
 * GET /metrics on real parts: the localnet (with market traffic) and two whole services in one process. Scrapes
 * the admin listener, parses the text, and checks that requests move the counter of their route and status and
 * the latency histogram, that 429s are counted by category, that the SSE gauge follows an open stream, that the
 * ingest and slab gauges agree with the service; /metrics is 404 on the main port without METRICS_PUBLIC and 200
 * with it, and the two services' registries do not share counts.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startLocalnet, type Localnet } from '../fixtures/localnet/start-localnet.js';
import { parsePromText, type PromScrape } from './testing/prom-text.js';
import { startServiceUnderTest, TEST_DEMO_KEY, type ServiceUnderTest } from './testing/service-under-test.js';
import { openSse } from './testing/sse-reader.js';
import { eventually } from './testing/wait.js';

let net: Localnet;
let sut: ServiceUnderTest;
let pub: ServiceUnderTest;

before(async () => {
  net = await startLocalnet({ rpcPort: 0, grpcPort: 0, tps: 20, slotMs: 100 });
  // RATE_QUOTA_SCALE 0.1: an anonymous caller gets 3 price requests a minute, so a refusal is cheap to cause.
  sut = await startServiceUnderTest({ RATE_QUOTA_SCALE: '0.1' }, net);
  pub = await startServiceUnderTest({ METRICS_PUBLIC: '1' }, net);
});

after(async () => {
  await sut?.stop();
  await pub?.stop();
  await net?.stop();
});

async function scrape(url: string): Promise<PromScrape> {
  const res = await fetch(`${url}/metrics`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return parsePromText(await res.text());
}

const n = (s: PromScrape, name: string, labels?: Record<string, string>): number => s.value(name, labels) ?? 0;

test('requests move the counter of their route and status, the latency histogram, and 429s by category', async () => {
  const before = await scrape(sut.svc.adminUrl);
  assert.equal(before.types.get('http_requests_total'), 'counter');
  assert.equal(before.types.get('http_request_duration_seconds'), 'histogram');
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) {
    const r = await fetch(`${sut.base}/v1/price/SOL`, { headers: { 'x-api-key': TEST_DEMO_KEY } });
    await r.arrayBuffer();
    statuses.push(r.status);
  }
  assert.deepEqual(statuses, [200, 200, 200]);
  const bad = await fetch(`${sut.base}/v1/price/${'1'.repeat(44)}`, { headers: { 'x-api-key': TEST_DEMO_KEY } });
  await bad.arrayBuffer();
  assert.ok(bad.status >= 400 && bad.status < 500, `unknown mint: ${bad.status}`);
  // Anonymous, over its quota of 3.
  let refused = 0;
  for (let i = 0; i < 5; i++) {
    const r = await fetch(`${sut.base}/v1/price/SOL`);
    await r.arrayBuffer();
    if (r.status === 429) refused++;
  }
  assert.ok(refused >= 2, `refusals: ${refused}`);
  const now = await scrape(sut.svc.adminUrl);
  const delta = (status: number): number => n(now, 'http_requests_total', { route: 'price', status: String(status) }) - n(before, 'http_requests_total', { route: 'price', status: String(status) });
  assert.equal(delta(200), 3 + (5 - refused));
  assert.equal(delta(bad.status), 1);
  assert.equal(delta(429), refused);
  assert.equal(n(now, 'rate_limit_refusals_total', { category: 'prices' }) - n(before, 'rate_limit_refusals_total', { category: 'prices' }), refused);
  const count = (s: PromScrape): number => n(s, 'http_request_duration_seconds_count', { route: 'price' });
  assert.equal(count(now) - count(before), 9);
  // Every observation is under the top bucket, and the sum is a plausible time (seconds, not ms).
  assert.equal(n(now, 'http_request_duration_seconds_bucket', { route: 'price', le: '5' }), count(now));
  const sum = n(now, 'http_request_duration_seconds_sum', { route: 'price' });
  assert.ok(sum > 0 && sum < count(now) * 1, `latency sum ${sum}`);
});

test('the SSE gauge follows an open stream; frames are counted', async () => {
  const before = await scrape(sut.svc.adminUrl);
  assert.equal(n(before, 'sse_clients'), 0);
  const s = await openSse(`${sut.base}/v1/stream/prices?tokens=SOL`, { 'x-api-key': TEST_DEMO_KEY });
  try {
    assert.equal(s.status, 200);
    // The opening frame (`ready`) is written with the headers; the price snapshot after it is a queued frame.
    for (let e = await s.next(10_000); e.event !== 'price'; e = await s.next(10_000));
    const open = await scrape(sut.svc.adminUrl);
    assert.equal(n(open, 'sse_clients'), 1);
    assert.ok(n(open, 'sse_frames_total') > n(before, 'sse_frames_total'), 'frames counted');
    assert.ok(n(open, 'sse_writes_total') >= 1);
    assert.equal(n(open, 'http_requests_total', { route: 'stream-prices', status: '200' }), 1);
  } finally {
    s.close();
  }
  await eventually(async () => assert.equal(n(await scrape(sut.svc.adminUrl), 'sse_clients'), 0), 5000);
});

test('ingest and slab gauges agree with the service', async () => {
  const s = await eventually(async () => {
    const x = await scrape(sut.svc.adminUrl);
    assert.equal(n(x, 'ingest_stream_connected'), 1);
    // The market simulator trades: ingest applies updates (reported once a second).
    assert.ok(n(x, 'ingest_updates_applied_total') > 0, 'updates applied');
    assert.ok(Number.isFinite(x.value('ingest_slot_lag')), 'slot lag known');
    return x;
  }, 15_000);
  const lag = s.value('ingest_slot_lag')!;
  assert.ok(Number.isInteger(lag) && lag >= 0 && lag <= 20, `slot lag ${lag}`);
  const pools = n(s, 'slab_pools');
  assert.ok(pools > 0);
  assert.equal(pools, sut.svc.slab.count());
  assert.ok(n(s, 'slab_capacity_pools') >= pools);
  assert.equal(n(s, 'slab_max_pools'), sut.svc.slab.maxPools());
  assert.equal(n(s, 'quote_pool_queue_depth'), 0);
});

test('/metrics is 404 on the main port without METRICS_PUBLIC, 200 with it; each service counts its own requests', async () => {
  const closed = await fetch(`${sut.base}/metrics`);
  assert.equal(closed.status, 404);
  assert.equal(((await closed.json()) as { code: string }).code, 'ROUTE_NOT_FOUND');
  const first = await scrape(pub.base);
  // The other service answered price requests; this one none yet.
  assert.equal(first.value('http_requests_total', { route: 'price', status: '200' }), undefined);
  const r = await fetch(`${pub.base}/v1/price/SOL`, { headers: { 'x-api-key': TEST_DEMO_KEY } });
  await r.arrayBuffer();
  assert.equal(r.status, 200);
  const onMain = await scrape(pub.base);
  const onAdmin = await scrape(pub.svc.adminUrl);
  assert.equal(onMain.value('http_requests_total', { route: 'price', status: '200' }), 1);
  assert.equal(onAdmin.value('http_requests_total', { route: 'price', status: '200' }), 1);
});
