/**
 * Starts Debian's nginx on a free loopback port with the project's recommended front configuration
 * (`http/nginx-front.conf`) in front of a given upstream port, for integration tests. Only the `listen` line
 * and the upstream address are rewritten; everything else is the file operators deploy.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { freePort } from '../../engine/testing/free-port.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../project-root.js';

/** A running nginx. */
export interface RunningNginx {
  /** The loopback port nginx listens on. */
  readonly port: number;
  /** What nginx wrote to its error log (stderr) so far. */
  errorLog(): string;
  stop(): Promise<void>;
}

const CANDIDATES = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx', '/usr/local/nginx/sbin/nginx'];

/** The nginx binary (`NGINX_BIN`, then the usual paths, then PATH), or null when there is none. */
export function findNginx(env: NodeJS.ProcessEnv = process.env): string | null {
  const onPath = (env.PATH ?? '').split(':').filter(Boolean).map((d) => join(d, 'nginx'));
  for (const p of [env.NGINX_BIN, ...CANDIDATES, ...onPath]) {
    if (!p) continue;
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {
      // not there
    }
  }
  return null;
}

/** The recommended front configuration, with its listen port and upstream port replaced. */
export function frontConfig(listenPort: number, upstreamPort: number): string {
  const src = readFileSync(join(projectRoot(import.meta.url), 'http', 'nginx-front.conf'), 'utf8');
  const listen = /^(\s*)listen 80;$/m;
  const upstream = /^(\s*)server 127\.0\.0\.1:8080;$/m;
  if (!listen.test(src) || !upstream.test(src)) throw new Error('nginx-front.conf lost its `listen 80;` or `server 127.0.0.1:8080;` line');
  return src.replace(listen, `$1listen 127.0.0.1:${listenPort};`).replace(upstream, `$1server 127.0.0.1:${upstreamPort};`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.on('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });
}

/**
 * Starts `bin` in the foreground (one process, no daemon: the test owns it) with the front configuration in a
 * fresh temporary prefix, and resolves once it accepts connections.
 */
export async function startNginx(bin: string, upstreamPort: number): Promise<RunningNginx> {
  const dir = mkdtempSync(join(tmpdir(), 'nginx-front-'));
  const port = await freePort();
  const conf = [
    'daemon off;',
    // Why one process: the test stops it with one signal, and no worker switches to another user.
    'master_process off;',
    'worker_processes 1;',
    'error_log stderr warn;',
    `pid ${dir}/nginx.pid;`,
    'events { worker_connections 256; }',
    'http {',
    '  access_log off;',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/${t};`),
    frontConfig(port, upstreamPort),
    '}',
    '',
  ].join('\n');
  writeFileSync(join(dir, 'nginx.conf'), conf);
  // `-e stderr`: nginx opens its compiled-in error log before reading the config otherwise.
  const child: ChildProcess = spawn(bin, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', 'stderr'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (d: Buffer) => (log += d.toString()));
  let exited = false;
  child.on('exit', () => (exited = true));
  const deadline = Date.now() + 5000;
  while (!(await accepts(port))) {
    if (exited || Date.now() > deadline) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`nginx did not start on ${port}: ${log}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    errorLog: () => log,
    async stop() {
      if (!exited) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
