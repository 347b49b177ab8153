/**
 * Geyser transport over @grpc/grpc-js with the Yellowstone package's own codecs: no .proto file, the service
 * is defined by its method path. Several times the napi client's throughput (the decode stays in JS).
 */
import * as grpc from '@grpc/grpc-js';
import type { GeyserEndpoint, GeyserHandlers, GeyserSubscription, GeyserTransport } from './geyser-transport.js';
import { yellowstone, type SubscribeRequest, type SubscribeUpdate } from './yellowstone.js';

const SUBSCRIBE_PATH = '/geyser.Geyser/Subscribe';

/** Creates a grpc-js transport (connects lazily on the first call). */
export function createGrpcJsTransport(endpoint: GeyserEndpoint): GeyserTransport {
  const url = new URL(endpoint.url);
  const secure = url.protocol === 'https:';
  const port = url.port || (secure ? '443' : '80');
  const credentials = secure ? grpc.credentials.createSsl() : grpc.credentials.createInsecure();
  const client = new grpc.Client(`${url.hostname}:${port}`, credentials, {
    'grpc.max_receive_message_length': 64 * 1024 * 1024,
    'grpc.keepalive_time_ms': 15_000,
    'grpc.keepalive_timeout_ms': 10_000,
  });
  const calls = new Set<grpc.ClientDuplexStream<SubscribeRequest, SubscribeUpdate>>();
  return {
    name: 'grpc-js',
    async subscribe(request: SubscribeRequest, h: GeyserHandlers): Promise<GeyserSubscription> {
      const md = new grpc.Metadata();
      if (endpoint.xToken) md.set('x-token', endpoint.xToken);
      const call = client.makeBidiStreamRequest<SubscribeRequest, SubscribeUpdate>(
        SUBSCRIBE_PATH,
        (r) => Buffer.from(yellowstone.SubscribeRequest.encode(r).finish()),
        (b) => yellowstone.SubscribeUpdate.decode(b),
        md,
      );
      calls.add(call);
      let ended = false;
      const end = (err: Error | null): void => {
        if (ended) return;
        ended = true;
        calls.delete(call);
        h.onEnd(err);
      };
      call.on('data', (u: SubscribeUpdate) => h.onUpdate(u));
      call.on('error', (e: Error) => end(e));
      call.on('end', () => end(new Error('geyser stream ended')));
      call.write(request);
      return {
        write(req: SubscribeRequest): void {
          if (!ended) call.write(req);
        },
        close(): void {
          if (ended) return;
          ended = true;
          calls.delete(call);
          call.cancel();
          h.onEnd(null);
        },
      };
    },
    close(): void {
      for (const c of calls) c.cancel();
      calls.clear();
      client.close();
    },
  };
}
