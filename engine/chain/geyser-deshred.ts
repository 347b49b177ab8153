/**
 * Yellowstone's `SubscribeDeshred` stream (the landed signal: transactions as they come out of a slot's shreds,
 * before execution) over either transport. The napi client has `subscribeDeshred()` (7.x; it sends nothing until
 * the first write); grpc-js calls the method path `/geyser.Geyser/SubscribeDeshred` with the package's codecs.
 * Same shape as `geyser-transport.ts`'s Subscribe, separate so the ingest transports stay as they are.
 */
import * as grpc from '@grpc/grpc-js';
import type { GeyserEndpoint, GeyserTransportName } from './geyser-transport.js';
import { yellowstone, YellowstoneClient, type SubscribeDeshredRequest, type SubscribeUpdateDeshred } from './yellowstone.js';

const SUBSCRIBE_DESHRED_PATH = '/geyser.Geyser/SubscribeDeshred';

/** Callbacks of one SubscribeDeshred stream. */
export interface DeshredHandlers {
  onUpdate(update: SubscribeUpdateDeshred): void;
  /** Called once when the stream ends for any reason (null error: closed by us). */
  onEnd(error: Error | null): void;
}

/** One live SubscribeDeshred stream. */
export interface DeshredSubscription {
  /** Sends a request: replaces the filters, or pings when `ping` is set (the filters stay). */
  write(request: SubscribeDeshredRequest): void;
  /** Closes the stream; `onEnd(null)` follows. */
  close(): void;
}

/** A connection able to open SubscribeDeshred streams. */
export interface DeshredClient {
  /** Opens a stream with a first request. */
  subscribe(request: SubscribeDeshredRequest, handlers: DeshredHandlers): Promise<DeshredSubscription>;
  /** Releases the connection (open streams are cancelled). */
  close(): void;
}

/** Connects a deshred client over the transport `name` (both transports have the call). */
export async function createDeshredClient(name: GeyserTransportName, endpoint: GeyserEndpoint): Promise<DeshredClient> {
  return name === 'napi' ? createNapiDeshred(endpoint) : createGrpcJsDeshred(endpoint);
}

/** The stream-end bookkeeping both transports share: `onEnd` once, our own close reported as null. */
function ender(h: DeshredHandlers, release: () => void): { end(err: Error | null): void; readonly ended: boolean } {
  let ended = false;
  return {
    end(err: Error | null): void {
      if (ended) return;
      ended = true;
      release();
      h.onEnd(err);
    },
    get ended() {
      return ended;
    },
  };
}

async function createNapiDeshred(endpoint: GeyserEndpoint): Promise<DeshredClient> {
  const client = new YellowstoneClient(endpoint.url, endpoint.xToken, undefined);
  // 7.x refuses every call before connect() ("Client not connected").
  await client.connect();
  const streams = new Set<{ destroy(): void }>();
  return {
    async subscribe(request, h) {
      const stream = await client.subscribeDeshred();
      streams.add(stream);
      const e = ender(h, () => streams.delete(stream));
      stream.on('data', (u: SubscribeUpdateDeshred) => h.onUpdate(u));
      stream.on('error', (err: Error) => e.end(err));
      stream.on('close', () => e.end(new Error('deshred stream closed')));
      stream.on('end', () => e.end(new Error('deshred stream ended')));
      stream.write(request);
      return {
        write: (req) => void (e.ended || stream.write(req)),
        close: () => {
          if (e.ended) return;
          // Why end first: destroy may report `close`, which must not count as a failure.
          e.end(null);
          stream.destroy();
        },
      };
    },
    close() {
      for (const s of streams) s.destroy();
      streams.clear();
    },
  };
}

function createGrpcJsDeshred(endpoint: GeyserEndpoint): DeshredClient {
  const url = new URL(endpoint.url);
  const secure = url.protocol === 'https:';
  const port = url.port || (secure ? '443' : '80');
  const client = new grpc.Client(`${url.hostname}:${port}`, secure ? grpc.credentials.createSsl() : grpc.credentials.createInsecure(), {
    'grpc.keepalive_time_ms': 15_000,
    'grpc.keepalive_timeout_ms': 10_000,
  });
  const calls = new Set<grpc.ClientDuplexStream<SubscribeDeshredRequest, SubscribeUpdateDeshred>>();
  return {
    async subscribe(request, h) {
      const md = new grpc.Metadata();
      if (endpoint.xToken) md.set('x-token', endpoint.xToken);
      const call = client.makeBidiStreamRequest<SubscribeDeshredRequest, SubscribeUpdateDeshred>(
        SUBSCRIBE_DESHRED_PATH,
        (r) => Buffer.from(yellowstone.SubscribeDeshredRequest.encode(r).finish()),
        (b) => yellowstone.SubscribeUpdateDeshred.decode(b),
        md,
      );
      calls.add(call);
      const e = ender(h, () => calls.delete(call));
      call.on('data', (u: SubscribeUpdateDeshred) => h.onUpdate(u));
      call.on('error', (err: Error) => e.end(err));
      call.on('end', () => e.end(new Error('deshred stream ended')));
      call.write(request);
      return {
        write: (req) => void (e.ended || call.write(req)),
        close: () => {
          if (e.ended) return;
          e.end(null);
          call.cancel();
        },
      };
    },
    close() {
      for (const c of calls) c.cancel();
      calls.clear();
      client.close();
    },
  };
}
