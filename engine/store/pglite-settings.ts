/**
 * How the embedded store's PostgreSQL and its WebAssembly run: PGlite's own start parameters (single-user mode,
 * `-F`, no worker processes, ...) plus a memory budget fitted to a control-plane database of API keys and ledgers,
 * and V8 kept on its baseline WebAssembly compiler. Measured in bench/README.md, "Embedded store footprint
 * (issue 11)".
 */
import v8 from 'node:v8';
import { PGlite } from '@electric-sql/pglite';

/**
 * Why `shared_buffers=4MB`: initdb writes 128MB into postgresql.conf, and PGlite's WebAssembly build touches all
 * of it when PostgreSQL starts (the store alone: 315 MiB of VmRSS after opening an existing directory with it,
 * 184 MiB with 4MB). WebAssembly memory never shrinks, so every buffer ever used stays resident. The data files
 * are read through the host's page cache (NODEFS), so a buffer miss costs a read system call, not a disk seek.
 * `-c` on the command line wins over postgresql.conf, so existing data directories get it too.
 */
export const PGLITE_MEMORY_PARAMS: readonly string[] = Object.freeze(['-c', 'shared_buffers=4MB']);

/** The arguments PGlite starts PostgreSQL with: its defaults, then {@link PGLITE_MEMORY_PARAMS}. */
export function pgliteStartParams(): string[] {
  return [...PGlite.defaultStartParams, ...PGLITE_MEMORY_PARAMS];
}

let baselineOnly = false;

/**
 * Keeps V8 from recompiling hot WebAssembly functions with its optimizing compiler (TurboFan): PostgreSQL is a
 * 9 MB module, and the key polls and usage flushes make enough of it hot that the optimized copies add 55-75 MiB
 * of resident code within the first minute, which is most of what is left of the store's footprint once the
 * buffer pool is small. Liftoff (V8's baseline compiler, which every function runs on first) stays; measured
 * keyed-read and batched-write latencies are the same at p50 and better at p99 (no compile jank on 2 cores).
 *
 * Process-wide and one-way (a V8 flag, `--liftoff-only`, set at run time before PGlite's module is compiled; Node
 * documents run-time flag changes as unsupported, and it works on the pinned Node 20). The only other WebAssembly in
 * the service is `long`'s i64 multiply/divide helpers (under protobufjs), a few instructions each. Only the embedded
 * store calls this; a service on PostgreSQL never does.
 */
export function keepWasmOnBaselineCompiler(): void {
  if (baselineOnly) return;
  v8.setFlagsFromString('--liftoff-only');
  baselineOnly = true;
}

/** True once {@link keepWasmOnBaselineCompiler} ran in this process. */
export function wasmKeptOnBaselineCompiler(): boolean {
  return baselineOnly;
}
