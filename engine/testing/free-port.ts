/**
 * Test support: a loopback port the OS reports free right now (for servers that must come back on the same port,
 * or a port nothing listens on).
 */
import { once } from 'node:events';
import { createServer } from 'node:net';

/** A free loopback port. */
export async function freePort(): Promise<number> {
  const srv = createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address() as { port: number };
  srv.close();
  await once(srv, 'close');
  return port;
}
