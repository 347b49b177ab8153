import { test } from 'node:test';
import assert from 'node:assert/strict';
import uWS from 'uWebSockets.js';
import { assertNativeUws, isNativeUws, loadUws } from './uws.js';

test('the installed uWebSockets.js is the native binding', () => {
  assert.ok(isNativeUws(uWS));
  assert.equal(loadUws({}), uWS);
});

test('a JS fallback is refused unless ALLOW_UWS_FALLBACK=1', () => {
  const fallback = { App: function App() { return {}; }, _cfg() {}, us_listen_socket_close() {}, us_socket_local_port() { return 0; } };
  assert.equal(isNativeUws(fallback), false);
  assert.throws(() => assertNativeUws(fallback, {}), { name: 'UwsFallbackError', code: 'UWS_FALLBACK' });
  assert.equal(assertNativeUws(fallback, { ALLOW_UWS_FALLBACK: '1' }), fallback);
  // getParts present but App is plain JS: still the fallback.
  assert.equal(isNativeUws({ ...fallback, getParts() {} }), false);
});
