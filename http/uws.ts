/**
 * Loads uWebSockets.js and refuses to run on its pure-JS fallback.
 *
 * Why: the republished package wraps the native `require` in a try/catch and silently returns a JS
 * implementation when the binary fails to load (wrong ABI, wrong glibc). That fallback is no faster than
 * node:http and has different SSE/backpressure semantics, so the service fails hard unless the operator
 * explicitly allows it with `ALLOW_UWS_FALLBACK=1`.
 */
import uWS from 'uWebSockets.js';

/** The uWebSockets.js module type. */
export type UwsModule = typeof uWS;

/**
 * True when `mod` is the native binding: only the native build exports `getParts`, and its `App` is a
 * native function (the fallback's `App` is plain JS).
 */
export function isNativeUws(mod: unknown): boolean {
  if (typeof mod !== 'object' || mod === null) return false;
  const m = mod as { getParts?: unknown; App?: unknown };
  return typeof m.getParts === 'function' && typeof m.App === 'function' && String(m.App).includes('[native code]');
}

/** Thrown when only the JS fallback of uWebSockets.js is available and it was not allowed. */
export class UwsFallbackError extends Error {
  override readonly name = 'UwsFallbackError';
  readonly code = 'UWS_FALLBACK';
  constructor() {
    super(
      'uWebSockets.js native binary did not load (the pure-JS fallback is active). This build needs Node 20 ' +
        '(ABI 115) on x64 Linux with glibc >= 2.27. Fix the install, or set ALLOW_UWS_FALLBACK=1 to run on the ' +
        'slower fallback anyway.',
    );
  }
}

/**
 * Returns `mod` when it is native, or when `env.ALLOW_UWS_FALLBACK === '1'`; throws {@link UwsFallbackError}
 * otherwise.
 */
export function assertNativeUws<T>(mod: T, env: NodeJS.ProcessEnv = process.env): T {
  if (isNativeUws(mod)) return mod;
  if (env.ALLOW_UWS_FALLBACK === '1') return mod;
  throw new UwsFallbackError();
}

/** The checked uWebSockets.js module (throws on the fallback unless allowed). */
export function loadUws(env: NodeJS.ProcessEnv = process.env): UwsModule {
  return assertNativeUws(uWS, env);
}
