/**
 * What reading the peer address costs per request in uWS: three routes in one server and one run, answering the
 * same body, that read nothing, the raw address bytes (`getRemoteAddress`, what the shell now copies only for
 * anonymous requests), or the text (`getRemoteAddressAsText` + UTF-8 decode, what it read on every request
 * before). Loopback wrk, one connection set per route, one after the other.
 * Run: `npx tsc -p tsconfig.json && node dist/bench/uws-remote-address.bench.js [seconds]`. Results: bench/README.md.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { us_listen_socket } from 'uWebSockets.js';
import { loadUws } from '../http/uws.js';
import { machineLine } from './quote-report.js';

const seconds = Number(process.argv[2] ?? 5);
const uWS = loadUws();
const app = uWS.App();
app.get('/none', (res) => void res.end('{"ok":true}'));
app.get('/raw', (res) => {
  const raw = new Uint8Array(res.getRemoteAddress()).slice();
  res.end(raw.length > 0 ? '{"ok":true}' : '{}');
});
app.get('/text', (res) => {
  const text = Buffer.from(res.getRemoteAddressAsText()).toString();
  res.end(text.length > 0 ? '{"ok":true}' : '{}');
});
const ls = await new Promise<us_listen_socket>((resolve, reject) => app.listen('127.0.0.1', 0, (s) => (s ? resolve(s) : reject(new Error('listen')))));
const port = uWS.us_socket_local_port(ls as unknown as Parameters<typeof uWS.us_socket_local_port>[0]);

async function rps(path: string): Promise<number> {
  const { stdout } = await promisify(execFile)('wrk', ['-t1', '-c32', `-d${seconds}s`, `http://127.0.0.1:${port}${path}`]);
  return Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0);
}

const rows: [string, number][] = [];
for (const path of ['/none', '/raw', '/text']) rows.push([path, await rps(path)]);
// A bench script reports on stdout by design.
console.log(machineLine());
console.log('| route | req/s | µs per request | vs /none |');
console.log('|---|---:|---:|---:|');
for (const [path, r] of rows) console.log(`| ${path} | ${Math.round(r).toLocaleString('en-US')} | ${(1e6 / r).toFixed(2)} | ${(r / rows[0]![1]).toFixed(2)} |`);
uWS.us_listen_socket_close(ls);
process.exit(0);
