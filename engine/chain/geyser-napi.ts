/**
 * Geyser transport over the official native client (`@triton-one/yellowstone-grpc` 7.x, napi). About 20k
 * updates/s on this class of machine: the per-message hop from native code is the limit.
 */
import type { GeyserEndpoint, GeyserHandlers, GeyserSubscription, GeyserTransport } from './geyser-transport.js';
import { YellowstoneClient, type SubscribeRequest, type SubscribeUpdate } from './yellowstone.js';

/** Creates a connected napi transport. */
export async function createNapiTransport(endpoint: GeyserEndpoint): Promise<GeyserTransport> {
  const client = new YellowstoneClient(endpoint.url, endpoint.xToken, undefined);
  // 7.x refuses every call before connect() ("Client not connected").
  await client.connect();
  const streams = new Set<{ destroy(): void }>();
  return {
    name: 'napi',
    async subscribe(request: SubscribeRequest, h: GeyserHandlers): Promise<GeyserSubscription> {
      const stream = await client.subscribe(request);
      streams.add(stream);
      let ended = false;
      const end = (err: Error | null): void => {
        if (ended) return;
        ended = true;
        streams.delete(stream);
        h.onEnd(err);
      };
      stream.on('data', (u: SubscribeUpdate) => h.onUpdate(u));
      stream.on('error', (e: Error) => end(e));
      stream.on('close', () => end(new Error('geyser stream closed')));
      stream.on('end', () => end(new Error('geyser stream ended')));
      return {
        write(req: SubscribeRequest): void {
          if (!ended) stream.write(req);
        },
        close(): void {
          if (ended) return;
          ended = true;
          streams.delete(stream);
          stream.destroy();
          h.onEnd(null);
        },
      };
    },
    close(): void {
      for (const s of streams) s.destroy();
      streams.clear();
    },
  };
}
