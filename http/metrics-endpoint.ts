/**
 * `GET /metrics` on a uWS app: the Prometheus text of a {@link ServiceMetrics}, unauthenticated (counts and
 * gauges only, no key, address or amount). Mounted on the loopback admin listener always, and on the main port
 * only with `METRICS_PUBLIC=1` (http/service.ts).
 */
import type { TemplatedApp } from 'uWebSockets.js';
import { log } from './log.js';
import { METRICS_CONTENT_TYPE } from './metrics.js';

/** What the endpoint serializes. */
export interface MetricsText {
  text(): Promise<string>;
}

/** Mounts `GET /metrics` on `app` (before its catch-all route). */
export function mountMetrics(app: TemplatedApp, metrics: MetricsText): void {
  app.get('/metrics', (res) => {
    let aborted = false;
    res.onAborted(() => (aborted = true));
    metrics.text().then(
      (text) => {
        if (aborted) return;
        res.cork(() => {
          res.writeHeader('content-type', METRICS_CONTENT_TYPE).writeHeader('cache-control', 'no-store').end(text);
        });
      },
      (e: unknown) => {
        log.error('metrics collection failed', { err: e });
        if (aborted) return;
        res.cork(() => {
          res.writeStatus('500 Internal Server Error').writeHeader('content-type', 'text/plain').end('metrics collection failed\n');
        });
      },
    );
  });
}
