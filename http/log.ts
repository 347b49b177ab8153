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

/** Longest string field a record carries (stacks excepted): fields may hold client input such as a 100 KB path. */
export const MAX_LOG_FIELD_CHARS = 512;

function field(k: string, v: unknown): unknown {
  if (typeof v === 'string') return v.length > MAX_LOG_FIELD_CHARS && k !== 'stack' ? `${v.slice(0, MAX_LOG_FIELD_CHARS)}...(${v.length - MAX_LOG_FIELD_CHARS} more chars)` : v;
  if (typeof v === 'bigint') return v.toString();
  return v instanceof Error ? { name: v.name, message: v.message, stack: v.stack } : v;
}

function emit(level: LogLevel, msg: string, fields?: Record<string, unknown>): void {
  if (RANK[level] < threshold) return;
  const rec: Record<string, unknown> = { ts: Date.now(), level, msg, ...fields };
  let line: string;
  try {
    line = JSON.stringify(rec, field);
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
