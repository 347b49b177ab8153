/**
 * Test support of the ingest integration tests: a Geyser transport that records every request it sends (the first
 * and every later write on the stream) and can observe every update it receives; and a polling wait.
 */
import type { GeyserTransport } from '../../chain/geyser-transport.js';
import type { SubscribeRequest, SubscribeUpdate } from '../../chain/yellowstone.js';

/** Wraps `t`: each request sent is pushed to `requests`; `observe` sees each update before the runner does. */
export function recordingTransport(t: GeyserTransport, requests: SubscribeRequest[], observe?: (u: SubscribeUpdate) => void): GeyserTransport {
  return {
    name: t.name,
    close: () => t.close(),
    async subscribe(req, handlers) {
      requests.push(req);
      const sub = await t.subscribe(
        req,
        observe
          ? {
              onUpdate: (u: SubscribeUpdate) => {
                observe(u);
                handlers.onUpdate(u);
              },
              onEnd: (e) => handlers.onEnd(e),
            }
          : handlers,
      );
      return {
        write: (r) => {
          requests.push(r);
          sub.write(r);
        },
        close: () => sub.close(),
      };
    },
  };
}

/** Resolves once `check()` holds, polling every 20 ms; throws naming `what` after `ms`. */
export async function waitFor(check: () => boolean, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
