/**
 * Opens an SSE request on a raw TCP socket, so a test can kill the client abruptly (RST) the way a crashed
 * browser or a dropped network does, which `fetch` cannot.
 */
import { connect, type Socket } from 'node:net';

/** Sends `GET path` with the key and resolves with the status once the response headers arrive. */
export function rawStream(base: string, key: string, path = '/v1/stream/prices?tokens=SOL'): Promise<{ status: number; socket: Socket }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let buf = '';
    socket.on('error', reject);
    socket.on('data', (d) => {
      buf += d.toString();
      const m = /^HTTP\/1\.1 (\d{3})/.exec(buf);
      if (m && buf.includes('\r\n\r\n')) {
        socket.removeAllListeners('data');
        resolve({ status: Number(m[1]), socket });
      }
    });
    socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\n\r\n`);
  });
}
