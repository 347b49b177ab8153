import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QuoteStreams } from '../../engine/services/quote-stream.js';
import { FakeStreamQuotes, ManualTicker, settle } from '../../engine/services/testing/fake-stream-quotes.js';
import { isApiError } from '../errors.js';
import { reloadLogLevel } from '../log.js';
import { createRequestContext, isStreamReply, type StreamReply } from '../request-context.js';
import { SseHub } from '../sse.js';
import { FAKE_MINTS, FakePriceService } from '../testing/fake-price-service.js';
import { FakeSseSocket } from '../testing/fake-sse-socket.js';
import { quoteStreamRoute } from './quote-stream.js';

process.env.LOG_LEVEL = 'silent';
reloadLogLevel();

function setup() {
  const svc = new FakePriceService();
  const fake = new FakeStreamQuotes();
  const ticker = new ManualTicker();
  const streams = new QuoteStreams({ quote: fake.quote, writeSeq: fake.writeSeq, generation: fake.generation, now: ticker.clock, timer: ticker.timer });
  const hub = new SseHub({ heartbeatMs: 0, now: () => 1234 });
  const route = quoteStreamRoute(svc, ['raydium-cpmm'], streams, hub);
  const connect = async (query: string): Promise<StreamReply> => {
    const reply = await route.handler(createRequestContext({ path: '/v1/quote/stream', rawQuery: query }));
    assert.ok(isStreamReply(reply));
    return reply;
  };
  /** Opens the reply's stream on a fake socket, as the pipeline does. */
  const open = (reply: StreamReply): { sock: FakeSseSocket; client: ReturnType<SseHub['open']> } => {
    const sock = new FakeSseSocket();
    let client!: ReturnType<SseHub['open']>;
    sock.cork(() => {
      client = hub.open(sock.socket, reply.stream.firstFrame);
      reply.stream.open(client);
    });
    return { sock, client };
  };
  return { svc, fake, ticker, streams, hub, route, connect, open };
}

/** The events written to a fake socket, parsed. */
function events(sock: FakeSseSocket): { event: string; data: Record<string, unknown> }[] {
  const out: { event: string; data: Record<string, unknown> }[] = [];
  for (const m of sock.writes.join('').matchAll(/event: (\S+)\ndata: (.*)\n\n/g)) out.push({ event: m[1]!, data: JSON.parse(m[2]!) as Record<string, unknown> });
  return out;
}

const PAIR = 'inputMint=SOL&outputMint=USDC&amount=1000000';

test('bad parameters are a plain 400 before the stream opens, naming the parameter', async () => {
  const { route, fake } = setup();
  for (const [q, field] of [
    [`${PAIR}&tickHz=abc`, 'tickHz'],
    [`${PAIR}&tickHz=`, null],
    [`${PAIR}&minMoveBps=`, null],
    [`${PAIR}&tickHz=Infinity`, 'tickHz'],
    [`${PAIR}&minMoveBps=-1`, 'minMoveBps'],
    [`${PAIR}&minMoveBps=x`, 'minMoveBps'],
    ['inputMint=SOL&outputMint=USDC&amount=0', 'amount'],
    ['inputMint=SOL&outputMint=USDC&amount=1.5', 'amount'],
    ['inputMint=SOL&outputMint=USDC', 'amount'],
    [`${PAIR}&slippageBps=5001`, 'slippageBps'],
    [`${PAIR}&dexes=nope`, 'dexes'],
    ['inputMint=SOL&outputMint=nope&amount=1', 'outputMint'],
  ] as const) {
    const ctx = createRequestContext({ path: '/v1/quote/stream', rawQuery: q });
    if (field === null) {
      assert.ok(isStreamReply(await route.handler(ctx)), `${q}: an empty value is the default`);
      continue;
    }
    await assert.rejects(Promise.resolve(route.handler(ctx)), (e: unknown) => isApiError(e) && e.code === 'INVALID_REQUEST' && e.message.includes(field), q);
  }
  assert.equal(fake.calls, 2, 'only the valid requests searched');
});

test('the first frame is the quote, computed on connect; a move sends a new frame; the heartbeat reaches the stream', async () => {
  const { connect, open, fake, ticker, hub, streams } = setup();
  const reply = await connect(`${PAIR}&tickHz=10&minMoveBps=5`);
  assert.equal(reply.stream.status, undefined, 'a 200 connect');
  assert.match(reply.stream.firstFrame, /^event: quote\n/);
  const { sock, client } = open(reply);
  const first = events(sock);
  assert.equal(first.length, 1);
  assert.equal(first[0]!.data.quoteId, 'q1');
  assert.equal(first[0]!.data.inputMint, FAKE_MINTS.SOL);
  assert.equal(fake.commits, 1);
  // tickHz 10 is clamped to 5: five checks in a second, none with route work.
  await ticker.advance(1000);
  assert.equal(streams.stats.ticks, 5);
  assert.equal(fake.calls, 1);
  fake.out = 1_000_400n; // 4 bps < 5: nothing
  fake.write(0);
  await ticker.advance(200);
  hub.flush();
  assert.equal(events(sock).length, 1);
  fake.out = 1_000_600n;
  fake.write(0);
  await ticker.advance(200);
  await settle();
  const all = events(sock);
  assert.equal(all.length, 2);
  assert.deepEqual([all[1]!.event, all[1]!.data.quoteId, (all[1]!.data.bestRoute as { outputAmount: string }).outputAmount], ['quote', 'q3', '1000600']);
  hub.sendHeartbeat();
  hub.flush();
  assert.deepEqual(events(sock).at(-1), { event: 'heartbeat', data: { ts: 1234 } });
  // The client goes: the stream stops.
  hub.remove(client);
  assert.equal(streams.size, 0);
});

test('a failing initial quote: the terminal error event with the mints, then the stream ends', async () => {
  for (const [fail, status, code] of [
    ['NO_ROUTE', 404, 'NO_ROUTE'],
    ['EXCEEDED_SLIPPAGE', 404, 'EXCEEDED_SLIPPAGE'],
    ['ROUTE_TIMEOUT', 504, 'ROUTE_TIMEOUT'],
  ] as const) {
    const { connect, open, fake, hub, streams } = setup();
    fake.fail = fail;
    const reply = await connect(PAIR);
    assert.equal(reply.stream.status, status, 'the observer records the error status');
    const { sock } = open(reply);
    const ev = events(sock);
    assert.equal(ev.length, 1);
    assert.equal(ev[0]!.event, 'error');
    assert.deepEqual({ ...ev[0]!.data, error: typeof ev[0]!.data.error, details: undefined }, {
      error: 'string',
      code,
      status,
      details: undefined,
      inputMint: FAKE_MINTS.SOL,
      outputMint: FAKE_MINTS.USDC,
    });
    assert.ok(sock.ended, 'closed right after');
    assert.equal(hub.size, 0);
    assert.equal(streams.size, 0);
  }
});

test('while the service warms up the connect gets the terminal 503 error event', async () => {
  const { connect, open, svc, fake } = setup();
  svc.isReady = false;
  const reply = await connect(PAIR);
  const { sock } = open(reply);
  const ev = events(sock);
  assert.deepEqual([ev[0]!.event, ev[0]!.data.status, ev[0]!.data.code], ['error', 503, 'SERVICE_UNAVAILABLE']);
  assert.ok(sock.ended);
  assert.equal(fake.calls, 0);
});
