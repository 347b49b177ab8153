import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { GrpcStatus, grpcStatusOf, isResumePointGone } from './grpc-status.js';

/** The shape the napi client gives a refused `from_slot` (seen against the localnet and Yellowstone). */
function napiError(description: string, message: string): Error {
  const e = new Error('subscribe stream receive failed') as Error & { code: string; cause: unknown };
  e.code = 'GenericFailure';
  const cause = new Error(`code: '${description}', message: "${message}"`) as Error & { code: string };
  cause.code = 'GenericFailure';
  e.cause = cause;
  return e;
}

/** The shape grpc-js gives (its ServiceError). */
function grpcJsError(code: number, details: string): Error {
  return Object.assign(new Error(`${code} X: ${details}`), { code, details, metadata: {} });
}

test('the napi client error maps to the gRPC code of its tonic status, whatever the server message says', () => {
  const gone = napiError('Client specified an invalid argument', 'broadcast from 1 is not available, last available: 300000020');
  assert.equal(grpcStatusOf(gone), GrpcStatus.INVALID_ARGUMENT);
  assert.equal(isResumePointGone(gone), true);
  // The message text does not decide: the same words under another code are not a gone resume point.
  const unavailable = napiError('The service is currently unavailable', 'invalid argument from_slot INVALID_ARGUMENT');
  assert.equal(grpcStatusOf(unavailable), GrpcStatus.UNAVAILABLE);
  assert.equal(isResumePointGone(unavailable), false);
  assert.equal(grpcStatusOf(napiError('Operation was attempted past the valid range', 'x')), GrpcStatus.OUT_OF_RANGE);
});

test('grpc-js errors map by their numeric code', () => {
  assert.equal(isResumePointGone(grpcJsError(3, 'broadcast from 1 is not available')), true);
  assert.equal(isResumePointGone(grpcJsError(11, 'whatever')), true);
  assert.equal(isResumePointGone(grpcJsError(14, 'from_slot INVALID_ARGUMENT')), false);
});

test('errors without a status have none', () => {
  assert.equal(grpcStatusOf(new Error('geyser stream ended')), undefined);
  assert.equal(grpcStatusOf(null), undefined);
  assert.equal(grpcStatusOf({ code: 'ECONNREFUSED' }), undefined);
  assert.equal(grpcStatusOf(napiError('not a tonic description', 'x')), undefined);
});

test('every tonic description the table knows is in the installed napi binary', () => {
  const require = createRequire(import.meta.url);
  const main = require.resolve('@triton-one/yellowstone-grpc');
  const scope = main.slice(0, main.lastIndexOf('/@triton-one/') + '/@triton-one'.length);
  const native = readdirSync(scope).find((d) => d.startsWith('yellowstone-grpc-napi-linux-x64-gnu'));
  assert.ok(native, 'the napi binary package is installed');
  const file = readdirSync(join(scope, native)).find((f) => f.endsWith('.node'))!;
  const bin = readFileSync(join(scope, native, file)).toString('latin1');
  const descriptions = [
    'The operation completed successfully', 'The operation was cancelled', 'Unknown error',
    'Client specified an invalid argument', 'Deadline expired before operation could complete',
    'Some requested entity was not found', 'Some entity that we attempted to create already exists',
    'The caller does not have permission to execute the specified operation', 'Some resource has been exhausted',
    "The system is not in a state required for the operation's execution", 'The operation was aborted',
    'Operation was attempted past the valid range', 'Operation is not implemented or not supported', 'Internal error',
    'The service is currently unavailable', 'Unrecoverable data loss or corruption',
    'The request does not have valid authentication credentials',
  ];
  descriptions.forEach((d, code) => {
    assert.ok(bin.includes(d), `"${d}" is in the binary`);
    assert.equal(grpcStatusOf(napiError(d, 'm')), code);
  });
});
