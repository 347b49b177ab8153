/**
 * Sync-or-async values for the request pipeline. Stages that answer synchronously keep the whole request on
 * the synchronous path (no microtask, and the reply is written while uWS still has the socket corked).
 */

/** A value or a promise of it. */
export type MaybePromise<T> = T | Promise<T>;

/** True when `v` is a thenable. */
export function isPromiseLike<T>(v: MaybePromise<T>): v is Promise<T> {
  return typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';
}

/** Applies `f` to `v` synchronously when `v` is a plain value, after it settles otherwise. */
export function step<T, U>(v: MaybePromise<T>, f: (t: T) => MaybePromise<U>): MaybePromise<U> {
  return isPromiseLike(v) ? v.then(f) : f(v);
}
