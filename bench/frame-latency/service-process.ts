/**
 * The service under the frame-latency benchmark, in its own process (its own event loop, as deployed): started
 * from the environment the benchmark passes, it creates an `internal` key (no stream or rate limits) once ready,
 * reports `{ port, key }` to the parent over IPC, answers `'quote-stream-stats'` with `{ quoteStreamStats }` and stops
 * on `'stop'`.
 */
import { loadConfig } from '../../http/config.js';
import { startService } from '../../http/service.js';

const svc = await startService(loadConfig(process.env));
await svc.ready;
const { key } = await svc.keys.create({ tier: 'internal' });
process.send!({ port: svc.port, key });
process.on('message', (m) => {
  if (m === 'stop') void svc.close().then(() => process.exit(0));
  if (m === 'quote-stream-stats') process.send!({ quoteStreamStats: { ...svc.quoteStreams.stats } });
});
