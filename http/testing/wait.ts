/**
 * Test support: polling until a condition holds, and free loopback ports.
 */
import { once } from 'node:events';
import { createServer } from 'node:net';

/** Retries `check` every `stepMs` until it passes; rethrows its last failure after `ms`. */
export async function eventually<T>(check: () => Promise<T> | T, ms = 10_000, stepMs = 100): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (e) {
      if (Date.now() > until) throw e;
      await new Promise((r) => setTimeout(r, stepMs));
    }
  }
}

/** A loopback port free right now (for servers that must come back on the same port). */
export async function freePort(): Promise<number> {
  const srv = createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address() as { port: number };
  srv.close();
  await once(srv, 'close');
  return port;
}
