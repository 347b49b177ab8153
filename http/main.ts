/**
 * The service's entry point: configuration from the environment, then every part started; SIGINT/SIGTERM close
 * the listen socket, end the streams and stop the workers.
 */
import { loadConfig } from './config.js';
import { log } from './log.js';
import { startService } from './service.js';

async function main(): Promise<void> {
  const cfg = loadConfig();
  const svc = await startService(cfg);
  process.stdout.write(`SERVICE_READY ${JSON.stringify({ url: `http://127.0.0.1:${svc.port}` })}\n`);
  let closing = false;
  const stop = (signal: string): void => {
    if (closing) return;
    closing = true;
    log.info('shutting down', { signal });
    svc.close().then(
      () => process.exit(0),
      (e: Error) => {
        log.error('shutdown failed', { error: e.message });
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((e: Error) => {
  log.error('service failed to start', { error: e.message });
  process.exit(1);
});
