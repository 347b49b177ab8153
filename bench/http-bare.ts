/**
 * The baseline for HTTP load benches: a bare uWS server with one `/bare` route answering a fixed small JSON,
 * with none of the shell's pipeline. Load the service and this side by side in the same run.
 *
 * Run standalone: `node dist/bench/http-bare.js [port]` (default 9002).
 */
import type { us_listen_socket } from 'uWebSockets.js';
import { loadUws } from '../http/uws.js';

/** The fixed body of `/bare`. */
export const BARE_BODY = '{"ok":true}';

/** A listening bare server. */
export interface BareServer {
  readonly port: number;
  close(): void;
}

/** Starts the bare baseline server on `port` (0 = any free port). */
export async function startBareServer(port = 0, host = '127.0.0.1'): Promise<BareServer> {
  const uWS = loadUws();
  const app = uWS.App();
  app.get('/bare', (res) => {
    // Synchronous answer inside the handler: uWS is already corked here and no onAborted is needed.
    res.writeHeader('content-type', 'application/json').end(BARE_BODY);
  });
  const ls = await new Promise<us_listen_socket>((resolve, reject) => {
    app.listen(host, port, (s) => (s ? resolve(s) : reject(new Error(`cannot listen on ${host}:${port}`))));
  });
  const bound = uWS.us_socket_local_port(ls as unknown as Parameters<typeof uWS.us_socket_local_port>[0]);
  return {
    port: bound,
    close: () => {
      uWS.us_listen_socket_close(ls);
      (app as unknown as { close?: () => void }).close?.();
    },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const s = await startBareServer(Number(process.argv[2] ?? 9002), process.argv[3] ?? '127.0.0.1');
  process.stderr.write(JSON.stringify({ msg: 'bare uWS baseline listening', port: s.port }) + '\n');
  process.on('SIGINT', () => s.close());
  process.on('SIGTERM', () => s.close());
}
