/**
 * A Geyser Subscribe server that only floods: a raw HTTP/2 gRPC endpoint writing pre-encoded updates, many
 * messages per write, so that the server is never the bottleneck when clients are measured (a grpc-js server
 * encoding per message tops out near 25k messages/s). Run as its own process by the ingest benchmark.
 * argv: pools total perSlot
 */
import http2 from 'node:http2';
import { grpcFrames } from '../fixtures/localnet/replay/wire.js';
import { floodMessages, floodUniverse } from '../fixtures/synthetic/cpmm-universe.js';

const [pools = 200, total = 200_000, perSlot = 100] = process.argv.slice(2).map(Number);
const messages = floodMessages(floodUniverse(pools), total, perSlot);

const chunks: Buffer[] = [];
for (let i = 0; i < messages.length; i += 256) chunks.push(grpcFrames(messages.slice(i, i + 256)));

const server = http2.createServer();
server.on('stream', (stream, headers) => {
  if (headers[':path'] !== '/geyser.Geyser/Subscribe') {
    stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '12' }, { endStream: true });
    return;
  }
  stream.on('data', () => undefined);
  stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
  stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
  let i = 0;
  const pump = (): void => {
    while (i < chunks.length) {
      if (!stream.write(chunks[i++]!)) {
        stream.once('drain', pump);
        return;
      }
    }
    // Keep the stream open briefly so the client drains before the trailers end it.
    setTimeout(() => stream.end(), 200);
  };
  pump();
});
server.listen(0, '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(`FLOOD_READY ${JSON.stringify({ port: typeof addr === 'object' && addr ? addr.port : 0, messages: messages.length })}\n`);
});
