import assert from 'node:assert/strict';
import { isIPv6 } from 'node:net';
import { test } from 'node:test';
import { ipBucket } from './client-ip.js';
import { copyAddress, ipText } from './remote-address.js';

test('IPv4, IPv4-mapped IPv6 and IPv6 bytes become text the client-ip bucketing reads', () => {
  assert.equal(ipText(Uint8Array.from([127, 0, 0, 1])), '127.0.0.1');
  const mapped = new Uint8Array(16);
  mapped.set([0xff, 0xff, 10, 1, 2, 3], 10);
  assert.equal(ipText(mapped), '10.1.2.3');
  const v6 = Uint8Array.from([0x20, 0x01, 0x0d, 0xb8, 0, 1, 0, 2, 0, 0, 0, 0, 0, 0, 0xab, 0xcd]);
  const text = ipText(v6);
  assert.equal(text, '2001:db8:1:2:0:0:0:abcd');
  assert.ok(isIPv6(text));
  assert.equal(ipBucket(text), '2001:db8:1:2::/64');
  assert.equal(ipText(new Uint8Array(3)), '');
  const src = new Uint8Array([1, 2, 3, 4]);
  const copy = copyAddress(src.buffer);
  src[0] = 9;
  assert.equal(copy[0], 1, 'a copy, not a view');
});
