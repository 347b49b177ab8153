/**
 * What telling "x-api-key sent but blank" from "no x-api-key" costs per anonymous request: uWS's `getHeader`
 * answers '' for both, so the shell walks the headers with `forEach` when it gets '' on a public route
 * (`http/pipeline.ts`, `headerSent`). Three routes in one server and one run, same body: no header read,
 * `getHeader` only, `getHeader` + the `forEach` walk. Loopback wrk with a browser-like set of 8 headers.
 * Run: `npx tsc -p tsconfig.json && node dist/bench/uws-header-sent.bench.js [seconds]`. Results: bench/README.md.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { HttpRequest, us_listen_socket } from 'uWebSockets.js';
import { loadUws } from '../http/uws.js';
import { machineLine } from './quote-report.js';

const seconds = Number(process.argv[2] ?? 5);
const uWS = loadUws();
const app = uWS.App();

function sent(req: HttpRequest, name: string): boolean {
  let found = false;
  req.forEach((k) => {
    if (k === name) found = true;
  });
  return found;
}

app.get('/none', (res) => void res.end('{"ok":true}'));
app.get('/get', (res, req) => {
  const v = req.getHeader('x-api-key');
  res.end(v === '' ? '{"ok":true}' : '{}');
});
app.get('/walk', (res, req) => {
  const v = req.getHeader('x-api-key');
  res.end(v === '' && !sent(req, 'x-api-key') ? '{"ok":true}' : '{}');
});
const ls = await new Promise<us_listen_socket>((resolve, reject) => app.listen('127.0.0.1', 0, (s) => (s ? resolve(s) : reject(new Error('listen')))));
const port = uWS.us_socket_local_port(ls as unknown as Parameters<typeof uWS.us_socket_local_port>[0]);

const HEADERS = ['accept: application/json', 'accept-language: en-US,en;q=0.9', 'accept-encoding: gzip, deflate, br',
  'user-agent: Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0', 'origin: https://app.example', 'referer: https://app.example/',
  'sec-fetch-mode: cors'];

async function rps(path: string): Promise<number> {
  const args = ['-t1', '-c32', `-d${seconds}s`, ...HEADERS.flatMap((h) => ['-H', h]), `http://127.0.0.1:${port}${path}`];
  const { stdout } = await promisify(execFile)('wrk', args);
  return Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0);
}

const rows: [string, number][] = [];
// Two rounds, alternating, so a drift of the shared machine shows.
for (let round = 0; round < 2; round++) for (const path of ['/none', '/get', '/walk']) rows.push([path, await rps(path)]);
// A bench script reports on stdout by design.
console.log(machineLine());
console.log('| route | req/s | µs per request | vs /none of the round |');
console.log('|---|---:|---:|---:|');
rows.forEach(([path, r], i) => {
  const base = rows[i - (i % 3)]![1];
  console.log(`| ${path} | ${Math.round(r).toLocaleString('en-US')} | ${(1e6 / r).toFixed(2)} | ${(r / base).toFixed(2)} |`);
});
uWS.us_listen_socket_close(ls);
process.exit(0);
