/**
 * GET /v1/attestation/pubkey (no key): the attestation key object `{ version, domain, algorithm, publicKey }`.
 * The key never rotates (clients pin it), so the answer is cacheable for a day.
 */
import type { AttestationService } from '../../engine/services/attestation-service.js';
import type { RouteDef } from '../route.js';

/** Cache-Control of the key object. */
export const ATTESTATION_KEY_CACHE = 'public, max-age=86400';

/** The attestation key route. */
export function attestationKeyRoute(attestation: AttestationService): RouteDef {
  const body = attestation.publicKey;
  const json = JSON.stringify(body);
  return {
    name: 'attestation.pubkey',
    method: 'get',
    pattern: '/v1/attestation/pubkey',
    auth: 'none',
    apiKeyQuery: false,
    meter: 'attestation',
    anonCacheTtlMs: 0,
    handler: () => ({ status: 200, body, json, headers: { 'cache-control': ATTESTATION_KEY_CACHE } }),
  };
}
