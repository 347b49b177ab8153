import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ApiError,
  CATALOG_EXTENSIONS,
  EXTENSION_STATUSES,
  ERROR_CATALOG,
  STATUS_TABLE,
  errorAnswer,
  errorBody,
  isApiError,
  type ErrorCode,
} from './errors.js';
import { projectRoot } from './project-root.js';

const SPEC_PATH = join(projectRoot(import.meta.url), '../shared/spec/service-interface.md');
const spec = readFileSync(SPEC_PATH, 'utf8');

/** Rows of the markdown table whose header line starts with `headerStart`, as arrays of trimmed cells. */
function tableRows(md: string, headerStart: string): string[][] {
  const lines = md.split('\n');
  const start = lines.findIndex((l) => l.trim().startsWith(headerStart));
  assert.ok(start >= 0, `table with header "${headerStart}" not found in the spec`);
  const rows: string[][] = [];
  for (let i = start + 2; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line.startsWith('|')) break;
    rows.push(line.slice(1, -1).split('|').map((c) => c.trim()));
  }
  assert.ok(rows.length > 0, `table "${headerStart}" is empty`);
  return rows;
}

const specCodes = new Map(
  tableRows(spec, '| code | Status | Meaning | Retry |').map(([code, status, _meaning, retry]) => [
    code!,
    { status: Number(status), retry: retry!.split(/[\s,]/)[0]!.toLowerCase() },
  ]),
);
const specStatuses = new Set(tableRows(spec, '| Status | When |').map(([s]) => Number(s)));

test('the spec tables parse into plausible sets', () => {
  assert.ok(specCodes.size >= 20, `only ${specCodes.size} codes parsed`);
  assert.ok(specStatuses.has(200) && specStatuses.has(503));
  for (const { status } of specCodes.values()) assert.ok(Number.isInteger(status), 'non-numeric status');
});

test('every spec code is in the catalog with the same status and retry hint', () => {
  for (const [code, s] of specCodes) {
    assert.ok(Object.hasOwn(ERROR_CATALOG, code), `spec code ${code} missing from the catalog`);
    const c = ERROR_CATALOG[code as ErrorCode];
    assert.equal(c.status, s.status, `status of ${code}`);
    assert.equal(c.retry, s.retry, `retry hint of ${code}`);
  }
});

test('every catalog code is in the spec, or a documented extension', () => {
  for (const code of Object.keys(ERROR_CATALOG) as ErrorCode[]) {
    if (CATALOG_EXTENSIONS.includes(code)) {
      assert.ok(!specCodes.has(code), `${code} is listed as an extension but the spec now defines it`);
      continue;
    }
    assert.ok(specCodes.has(code), `catalog code ${code} is not in the spec (add it to CATALOG_EXTENSIONS or remove it)`);
  }
  for (const ext of CATALOG_EXTENSIONS) assert.ok(Object.hasOwn(ERROR_CATALOG, ext), `extension ${ext} not in the catalog`);
});

test('the status table matches the spec both ways, and every code status is in it', () => {
  const ours = new Set(Object.keys(STATUS_TABLE).map(Number));
  assert.deepEqual([...ours].sort(), [...specStatuses].sort());
  for (const [code, c] of Object.entries(ERROR_CATALOG)) {
    const allowed = specStatuses.has(c.status) || (CATALOG_EXTENSIONS.includes(code as ErrorCode) && Object.hasOwn(EXTENSION_STATUSES, c.status));
    assert.ok(allowed, `${code} uses status ${c.status} missing from the spec's status table`);
  }
});

test('errorBody has the spec shape with extra fields after', () => {
  assert.deepEqual(errorBody('INVALID_REQUEST', 'bad'), { error: 'bad', code: 'INVALID_REQUEST' });
  const b = errorBody('RATE_LIMITED', 'slow down', undefined, { limit: 30, tier: 'anonymous', retryAfterSeconds: 12, code: 'X' });
  assert.deepEqual(b, { error: 'slow down', code: 'RATE_LIMITED', limit: 30, tier: 'anonymous', retryAfterSeconds: 12 });
  assert.deepEqual(Object.keys(b).slice(0, 2), ['error', 'code']);
});

test('errorAnswer adds Retry-After on 429 and 503 only', () => {
  const a503 = errorAnswer(new ApiError('SERVICE_UNAVAILABLE', 'warming'));
  assert.equal(a503.status, 503);
  assert.equal(a503.headers['retry-after'], '5');
  const a429 = errorAnswer(new ApiError('RATE_LIMITED', 'x', { retryAfterSeconds: 5, extra: { retryAfterSeconds: 13 } }));
  assert.equal(a429.status, 429);
  assert.equal(a429.headers['retry-after'], '13');
  const a400 = errorAnswer(new ApiError('INVALID_REQUEST', 'x', { details: 'd' }));
  assert.equal(a400.headers['retry-after'], undefined);
  assert.deepEqual(a400.body, { error: 'x', code: 'INVALID_REQUEST', details: 'd' });
});

test('isApiError checks by name and code, not instanceof', () => {
  assert.ok(isApiError(new ApiError('INTERNAL', 'x')));
  assert.ok(isApiError({ name: 'ApiError', code: 'NO_ROUTE', message: 'cloned' }));
  assert.ok(!isApiError({ name: 'ApiError', code: 'NOT_A_CODE' }));
  assert.ok(!isApiError(new Error('x')));
});
