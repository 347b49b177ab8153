/**
 * A request body that must be one JSON object: the parse every JSON route shares. The caller turns a failure into
 * its own 400 (the field it names, the extra fields its error bodies carry).
 */

/** The object, or why the body is not one (`details` for the 400). */
export type JsonObjectBody = { readonly ok: true; readonly value: Record<string, unknown> } | { readonly ok: false; readonly details: string };

/** Parses `body` as one JSON object; `what` names it in the missing-body message (e.g. `{ transaction }`). */
export function jsonObjectBody(body: Buffer | null, what = 'object'): JsonObjectBody {
  if (body === null || body.length === 0) return { ok: false, details: `a JSON ${what} body is required` };
  let v: unknown;
  try {
    v = JSON.parse(body.toString('utf8'));
  } catch {
    return { ok: false, details: 'the body is not valid JSON' };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { ok: false, details: 'the body must be a JSON object' };
  return { ok: true, value: v as Record<string, unknown> };
}
