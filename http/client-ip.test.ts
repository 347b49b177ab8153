import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientAddress, ipBucket } from './client-ip.js';

test('IPv4 stays, IPv6 is bucketed by /64, IPv4-mapped reads as IPv4', () => {
  assert.equal(ipBucket('10.1.2.3'), '10.1.2.3');
  assert.equal(ipBucket('2001:db8:1:2:aaaa:bbbb:cccc:dddd'), '2001:db8:1:2::/64');
  assert.equal(ipBucket('2001:db8:1:2::1'), '2001:db8:1:2::/64');
  assert.equal(ipBucket('2001:db8:1:2::2'), ipBucket('2001:db8:1:2:ffff::9'));
  assert.notEqual(ipBucket('2001:db8:1:2::1'), ipBucket('2001:db8:1:3::1'));
  assert.equal(ipBucket('::ffff:127.0.0.1'), '127.0.0.1');
  assert.equal(ipBucket('0000:0000:0000:0000:0000:ffff:7f00:0001'), '127.0.0.1');
  assert.equal(ipBucket('::1'), '::1');
  assert.equal(ipBucket('0000:0000:0000:0000:0000:0000:0000:0001'), '::1');
});

test('X-Forwarded-For only when trusted and well formed', () => {
  assert.equal(clientAddress({ 'x-forwarded-for': '1.2.3.4, 10.0.0.1' }, '127.0.0.1', true), '1.2.3.4');
  assert.equal(clientAddress({ 'x-forwarded-for': '1.2.3.4' }, '127.0.0.1', false), '127.0.0.1');
  assert.equal(clientAddress({ 'x-forwarded-for': 'junk' }, '127.0.0.1', true), '127.0.0.1');
});
