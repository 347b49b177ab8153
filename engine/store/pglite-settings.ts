/**
 * The PostgreSQL settings the embedded store starts with: PGlite's own start parameters (single-user mode, `-F`,
 * no worker processes, ...) plus a memory budget fitted to a control-plane database of API keys and ledgers.
 */
import { PGlite } from '@electric-sql/pglite';

/**
 * Why `shared_buffers=4MB`: initdb writes 128MB into postgresql.conf, and PGlite's WebAssembly build touches all
 * of it when PostgreSQL starts (measured: +270-290 MB of RSS with it, +120-150 MB with 2-16 MB; bench/README.md,
 * "Embedded store footprint"). WebAssembly memory never shrinks, so every buffer ever used stays resident. The
 * data files are read through the host's page cache (NODEFS), so a buffer miss costs a read system call, not a
 * disk seek; keyed reads and writes measured the same with 4 MB as with 128 MB. `-c` on the command line wins
 * over postgresql.conf, so existing data directories get it too.
 */
export const PGLITE_MEMORY_PARAMS: readonly string[] = Object.freeze(['-c', 'shared_buffers=4MB']);

/** The arguments PGlite starts PostgreSQL with: its defaults, then {@link PGLITE_MEMORY_PARAMS}. */
export function pgliteStartParams(): string[] {
  return [...PGlite.defaultStartParams, ...PGLITE_MEMORY_PARAMS];
}
