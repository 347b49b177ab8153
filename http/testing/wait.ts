/**
 * Test support: polling until a condition holds.
 */

/** Retries `check` every `stepMs` until it passes; rethrows its last failure after `ms`. */
export async function eventually<T>(check: () => Promise<T> | T, ms = 10_000, stepMs = 100): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (e) {
      if (Date.now() > until) throw e;
      await new Promise((r) => setTimeout(r, stepMs));
    }
  }
}
