/**
 * Strict query-parameter parsing: anything malformed is a 400 INVALID_REQUEST naming the parameter.
 */
import { ApiError } from './errors.js';

/** Parses a boolean parameter: exactly `true|false|1|0`; absent -> `fallback`. */
export function booleanParam(query: URLSearchParams, name: string, fallback: boolean): boolean {
  const v = query.get(name);
  if (v === null) return fallback;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw new ApiError('INVALID_REQUEST', `Invalid ${name}`, { details: `${name} must be one of true, false, 1, 0` });
}

/** Parses a finite decimal number parameter within [min, max]; absent -> `fallback`. */
export function numberParam(query: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const v = query.get(name);
  if (v === null) return fallback;
  const n = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isFinite(n) || n < min || n > max) {
    throw new ApiError('INVALID_REQUEST', `Invalid ${name}`, { details: `${name} must be a number in [${min}, ${max}]` });
  }
  return n;
}

/** Splits a comma-separated list, trimming entries and dropping empty ones. */
export function listParam(raw: string): string[] {
  const out: string[] = [];
  for (const part of raw.split(',')) {
    const t = part.trim();
    if (t) out.push(t);
  }
  return out;
}
