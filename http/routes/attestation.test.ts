import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openAttestation } from '../../engine/services/attestation-service.js';
import { serializeReply } from '../pipeline.js';
import { createRequestContext, type Reply } from '../request-context.js';
import { ATTESTATION_KEY_CACHE, attestationKeyRoute } from './attestation.js';

test('GET /v1/attestation/pubkey answers the spec key object of the loaded key, cacheable, no key needed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'attr-'));
  const att = openAttestation(dir, {});
  const route = attestationKeyRoute(att);
  assert.equal(route.auth, 'none');
  assert.equal(route.meter, 'attestation');
  const r = route.handler(createRequestContext({ path: '/v1/attestation/pubkey' })) as Reply;
  assert.equal(r.status, 200);
  assert.equal(r.headers?.['cache-control'], ATTESTATION_KEY_CACHE);
  const body = JSON.parse(String(serializeReply(r).body)) as Record<string, string>;
  assert.deepEqual(Object.keys(body), ['version', 'domain', 'algorithm', 'publicKey']);
  assert.deepEqual(body, { version: 'v1', domain: 'svc-swap-attestation', algorithm: 'ed25519', publicKey: att.publicKey.publicKey });
  // The same DATA_DIR gives the same key after a restart.
  assert.equal(openAttestation(dir, {}).publicKey.publicKey, body.publicKey);
});
