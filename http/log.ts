/**
 * Tiny structured logger for the HTTP shell: one JSON line per record on stderr, filtered by `LOG_LEVEL`
 * (`debug` | `info` | `warn` | `error` | `silent`, default `info`).
 */

/** Severity of a log record, lowest first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

const RANK: Record<LogLevel | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

function thresholdFromEnv(): number {
  const raw = (process.env.LOG_LEVEL ?? 'info').toLowerCase();
  return raw in RANK ? RANK[raw as LogLevel | 'silent'] : RANK.info;
}

let threshold = thresholdFromEnv();

/** Re-reads `LOG_LEVEL` (tests change it at run time). */
export function reloadLogLevel(): void {
  threshold = thresholdFromEnv();
}

function emit(level: LogLevel, msg: string, fields?: Record<string, unknown>): void {
  if (RANK[level] < threshold) return;
  const rec: Record<string, unknown> = { ts: Date.now(), level, msg, ...fields };
  let line: string;
  try {
    line = JSON.stringify(rec, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v instanceof Error ? { name: v.name, message: v.message, stack: v.stack } : v));
  } catch {
    line = JSON.stringify({ ts: rec.ts, level, msg, note: 'unserializable fields' });
  }
  process.stderr.write(line + '\n');
}

/** The shell's logger; fields are merged into the JSON record. */
export const log = {
  debug: (msg: string, fields?: Record<string, unknown>): void => emit('debug', msg, fields),
  info: (msg: string, fields?: Record<string, unknown>): void => emit('info', msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>): void => emit('warn', msg, fields),
  error: (msg: string, fields?: Record<string, unknown>): void => emit('error', msg, fields),
};
