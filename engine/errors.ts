/**
 * The one error class for invariant violations and bad configuration. Expected outcomes on the hot path are
 * status values, never this. Errors cross worker boundaries, so check `name` and `code`, not `instanceof`.
 */
export class EngineError extends Error {
  override readonly name = 'EngineError';
  readonly code: string;
  readonly context: Readonly<Record<string, unknown>>;

  constructor(code: string, message: string, context: Record<string, unknown> = {}) {
    super(message);
    this.code = code;
    this.context = Object.freeze({ ...context });
  }
}

/** True when `e` is an {@link EngineError} (also after a structured clone across threads). */
export function isEngineError(e: unknown, code?: string): e is EngineError {
  if (typeof e !== 'object' || e === null) return false;
  const o = e as { name?: unknown; code?: unknown };
  return o.name === 'EngineError' && (code === undefined || o.code === code);
}
