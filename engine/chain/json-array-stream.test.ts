import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JsonArrayStream, type JsonStreamTargets } from './json-array-stream.js';

const TARGETS: JsonStreamTargets = { arrays: [['result', 'value'], ['result']], values: [['result', 'context'], ['error']] };

/** Scans `doc` cut into the given chunks; returns what was handed over, as text. */
function scan(doc: string, cuts: readonly number[], targets = TARGETS): { elements: string[]; values: [number, string][] } {
  const bytes = Buffer.from(doc, 'utf8');
  const elements: string[] = [];
  const values: [number, string][] = [];
  const s = new JsonArrayStream(targets, {
    element: (b) => elements.push(Buffer.from(b).toString('utf8')),
    value: (b, t) => values.push([t, Buffer.from(b).toString('utf8')]),
  });
  let at = 0;
  for (const c of [...cuts, bytes.length]) {
    s.write(bytes.subarray(at, c));
    at = c;
  }
  s.end();
  return { elements, values };
}

const ELEMENTS = [
  { pubkey: 'A1', account: { data: ['AAEC', 'base64'], executable: false, lamports: 2039280, owner: 'Tok', rentEpoch: 18446744073709552000, space: 3 } },
  { pubkey: 'B2', account: { data: ['', 'base64'], executable: true, lamports: 0, owner: 'x"y\\z}]{[', rentEpoch: 0, space: 0 } },
  { pubkey: 'C3 \u00e9\u2603 "quoted" \\', account: { nested: [[1, [2]], { a: '}' }], n: null } },
];

test('elements of result.value and the context come out whole, whatever the chunking', () => {
  // Agave's key order (context first), with whitespace and a string full of JSON syntax and escapes.
  const doc = `{ "jsonrpc" : "2.0", "result": {"context":{"apiVersion":"2.2.1","slot":301},\n "value": [ ${ELEMENTS.map((e) => JSON.stringify(e)).join(' ,\n')} ] }, "id": 7 }`;
  const want = ELEMENTS.map((e) => JSON.stringify(e));
  const whole = scan(doc, []);
  assert.deepEqual(whole.elements, want);
  assert.deepEqual(whole.values, [[0, '{"apiVersion":"2.2.1","slot":301}']]);
  const bytes = Buffer.byteLength(doc);
  // Every single cut, and one-byte chunks.
  for (let cut = 1; cut < bytes; cut++) assert.deepEqual(scan(doc, [cut]).elements, want, `cut at ${cut}`);
  const ones = scan(doc, Array.from({ length: bytes - 1 }, (_, i) => i + 1));
  assert.deepEqual(ones.elements, want);
  assert.deepEqual(ones.values, whole.values);
});

test('a result that is the array itself, null elements, and a value that comes after the array', () => {
  assert.deepEqual(scan('{"jsonrpc":"2.0","result":[{"a":1},null,{"b":[2]}],"id":1}', [9, 30]).elements, ['{"a":1}', 'null', '{"b":[2]}']);
  const late = scan('{"result":{"value":[1, 22 ,333],"context":{"slot":5}},"id":1}', [20, 21]);
  assert.deepEqual(late.elements, ['1', '22', '333']);
  assert.deepEqual(late.values, [[0, '{"slot":5}']]);
  assert.deepEqual(scan('{"result":{"context":{"slot":5},"value":[]},"id":1}', []).elements, []);
});

test('an error answer is handed over as a value; values under other keys are skipped', () => {
  const r = scan('{"jsonrpc":"2.0","error":{"code":-32602,"message":"bad [params] {x}"},"id":1,"other":{"value":[1]}}', [30]);
  assert.deepEqual(r.elements, []);
  assert.deepEqual(r.values, [[1, '{"code":-32602,"message":"bad [params] {x}"}']]);
});

test('a truncated document, a second document, and a body that is not JSON are refused', () => {
  assert.throws(() => scan('{"result":{"context":{"slot":1},"value":[{"a":1},{"b"', []), { code: 'RPC_BAD_JSON' });
  assert.throws(() => scan('{"result":[]}{"result":[]}', []), { code: 'RPC_BAD_JSON' });
  assert.throws(() => scan('<html>502 Bad Gateway</html>', []), { code: 'RPC_BAD_JSON' });
  assert.throws(() => scan('{"result":[1}', []), { code: 'RPC_BAD_JSON' });
});
