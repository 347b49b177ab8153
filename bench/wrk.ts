/**
 * wrk from a bench process, without blocking it (the servers under test may live in the same process): requests per
 * second and the p50 / p99 latency of one run (`-t1 -c32 --latency`).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** One wrk run. */
export interface WrkResult {
  rps: number;
  p50Ms: number;
  p99Ms: number;
}

function toMs(v: string): number {
  const m = /([\d.]+)(us|ms|s)/.exec(v);
  if (!m) return NaN;
  const n = Number(m[1]);
  return m[2] === 'us' ? n / 1000 : m[2] === 's' ? n * 1000 : n;
}

/**
 * Loads `url` for `seconds` with 32 connections; `headers` as `name: value`; `post`: a JSON body sent with POST on
 * every request (through a wrk Lua script written to a temporary file).
 */
export async function runWrk(url: string, seconds: number, headers: readonly string[] = [], post?: string): Promise<WrkResult> {
  const script: string[] = [];
  if (post !== undefined) {
    const file = join(mkdtempSync(join(tmpdir(), 'wrk-')), 'post.lua');
    writeFileSync(file, `wrk.method = "POST"\nwrk.body = ${JSON.stringify(post)}\nwrk.headers["Content-Type"] = "application/json"\n`);
    script.push('-s', file);
  }
  const args = ['-t1', '-c32', `-d${seconds}s`, '--latency', ...script, ...headers.flatMap((h) => ['-H', h]), url];
  const { stdout: out } = await promisify(execFile)('wrk', args, { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const p50 = /\s50%\s+(\S+)/.exec(out)?.[1] ?? '';
  const p99 = /\s99%\s+(\S+)/.exec(out)?.[1] ?? '';
  return { rps, p50Ms: toMs(p50), p99Ms: toMs(p99) };
}
