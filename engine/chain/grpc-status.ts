/**
 * The gRPC status code of a failed call, whichever Geyser transport made it. grpc-js puts the number in `code`;
 * the native (napi) Yellowstone client wraps the Rust tonic status and surfaces only its code's canonical
 * description (`code: 'Client specified an invalid argument', message: "..."`) in `cause.message`. Both map to
 * the same number here, so ingest decides on status codes, never on the server's message text.
 */

/** gRPC status codes (the protocol's numbering). */
export const GrpcStatus = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

/** A gRPC status code number. */
export type GrpcStatusCode = (typeof GrpcStatus)[keyof typeof GrpcStatus];

/**
 * tonic's `Code::description()` for each code: the fixed text the napi client prints in place of the number.
 * Why a table of fixed texts is not "matching message text": these strings are the status code itself as tonic
 * renders it (one per code, part of the library), not the server's free-form message.
 */
const TONIC_DESCRIPTIONS: ReadonlyArray<readonly [string, GrpcStatusCode]> = [
  ['The operation completed successfully', GrpcStatus.OK],
  ['The operation was cancelled', GrpcStatus.CANCELLED],
  ['Unknown error', GrpcStatus.UNKNOWN],
  ['Client specified an invalid argument', GrpcStatus.INVALID_ARGUMENT],
  ['Deadline expired before operation could complete', GrpcStatus.DEADLINE_EXCEEDED],
  ['Some requested entity was not found', GrpcStatus.NOT_FOUND],
  ['Some entity that we attempted to create already exists', GrpcStatus.ALREADY_EXISTS],
  ['The caller does not have permission to execute the specified operation', GrpcStatus.PERMISSION_DENIED],
  ['Some resource has been exhausted', GrpcStatus.RESOURCE_EXHAUSTED],
  ['The system is not in a state required for the operation\'s execution', GrpcStatus.FAILED_PRECONDITION],
  ['The operation was aborted', GrpcStatus.ABORTED],
  ['Operation was attempted past the valid range', GrpcStatus.OUT_OF_RANGE],
  ['Operation is not implemented or not supported', GrpcStatus.UNIMPLEMENTED],
  ['Internal error', GrpcStatus.INTERNAL],
  ['The service is currently unavailable', GrpcStatus.UNAVAILABLE],
  ['Unrecoverable data loss or corruption', GrpcStatus.DATA_LOSS],
  ['The request does not have valid authentication credentials', GrpcStatus.UNAUTHENTICATED],
];

/** The start of a tonic status as the napi client formats it: `code: '<description>', message: ...`. */
const TONIC_CODE = /^\s*code:\s*'/;

/**
 * The gRPC status code carried by an error of either transport, or undefined when it carries none (a local
 * failure: connection refused before any call, a closed stream, our own close).
 */
export function grpcStatusOf(e: unknown): GrpcStatusCode | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const o = e as { code?: unknown; cause?: unknown };
  // grpc-js: a numeric status in `code` (its ServiceError).
  if (typeof o.code === 'number' && o.code >= 0 && o.code <= 16) return o.code as GrpcStatusCode;
  // napi: `code` is a napi string ('GenericFailure'); the tonic status is rendered in `cause.message`.
  const cause = o.cause as { message?: unknown } | undefined;
  if (cause && typeof cause.message === 'string') {
    const m = TONIC_CODE.exec(cause.message);
    if (m) {
      // Why a prefix match, not a capture up to the next quote: one description contains an apostrophe.
      const rest = cause.message.slice(m[0].length);
      for (const [d, code] of TONIC_DESCRIPTIONS) if (rest.startsWith(`${d}'`)) return code;
    }
  }
  return undefined;
}

/**
 * True when a Subscribe refusal means the requested `from_slot` is outside the server's replay window
 * (Yellowstone answers INVALID_ARGUMENT; OUT_OF_RANGE is accepted for servers that use the more specific code).
 */
export function isResumePointGone(e: unknown): boolean {
  const c = grpcStatusOf(e);
  return c === GrpcStatus.INVALID_ARGUMENT || c === GrpcStatus.OUT_OF_RANGE;
}
