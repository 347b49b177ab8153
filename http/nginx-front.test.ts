/**
 * Holds the recommended nginx front (`http/nginx-front.conf`) against the code: it forwards only the request
 * headers it names, so every header the pipeline or a route copies must be among them, and every forwarded
 * header the service reads must be checked by the control-byte / size guard before it reaches uWS.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BASE_HEADERS } from './pipeline.js';
import { PriceFanout } from './price-fanout.js';
import { projectRoot } from './project-root.js';
import { buildRoutes } from './routes/route-table.js';
import { SseHub } from './sse.js';
import { FakePriceService } from './testing/fake-price-service.js';
import { frontConfig } from './testing/nginx.js';

const conf = readFileSync(join(projectRoot(import.meta.url), 'http', 'nginx-front.conf'), 'utf8');

/** Lower-case names of the headers the config sets on the upstream request. */
function forwarded(): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of conf.matchAll(/^\s*proxy_set_header\s+(\S+)\s+(.+);$/gm)) out.set(m[1]!.toLowerCase(), m[2]!.trim());
  return out;
}

function copiedByTheService(): Set<string> {
  const svc = new FakePriceService();
  const routes = buildRoutes({ priceService: svc, fanout: new PriceFanout(svc, new SseHub({ heartbeatMs: 60_000 })), points: async () => null });
  const names = new Set<string>(BASE_HEADERS);
  for (const r of routes) for (const h of r.copyHeaders ?? []) names.add(h.toLowerCase());
  return names;
}

test('the front forwards only named headers, and every header the service copies is among them', () => {
  assert.match(conf, /^\s*proxy_pass_request_headers off;$/m);
  const fwd = forwarded();
  for (const h of copiedByTheService()) assert.ok(fwd.has(h), `nginx-front.conf does not forward ${h}, which the service reads`);
});

test('every client value forwarded is checked by the guard map before it reaches uWS', () => {
  const guard = /^map "([^"]+)" \$market_data_refuse/m.exec(conf);
  assert.ok(guard, 'guard map missing');
  for (const [name, value] of forwarded()) {
    if (!value.startsWith('$http_')) continue;
    assert.ok(guard[1]!.includes(value), `${name} forwards ${value} without the guard`);
  }
});

test('the front speaks HTTP/1.1 upstream and does not buffer streams', () => {
  assert.match(conf, /^\s*proxy_http_version 1\.1;$/m);
  assert.match(conf, /^\s*proxy_buffering off;$/m);
  assert.match(conf, /^\s*proxy_set_header Connection "";$/m);
});

test('the test copy differs from the deployed file only in its listen and upstream lines', () => {
  const copy = frontConfig(4321, 8765);
  assert.match(copy, /^\s*listen 127\.0\.0\.1:4321;$/m);
  assert.match(copy, /^\s*server 127\.0\.0\.1:8765;$/m);
  const strip = (s: string): string => s.replace(/^\s*(listen|server) .*$/gm, '');
  assert.equal(strip(copy), strip(conf));
});
