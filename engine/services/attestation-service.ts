/**
 * The swap attestation as the shell sees it: the instance's signer, loaded (or generated once into DATA_DIR) from
 * configuration, and its published key object. The layout and the signing live in engine/tx.
 */
import { loadAttestationKey, type AttestationKey } from '../tx/attestation-key.js';
import { AttestationSigner, type AttestationPublicKey } from '../tx/attestation-signer.js';

/** What the shell needs of the attestation. */
export interface AttestationService {
  /** The key object of `GET /v1/attestation/pubkey`. */
  readonly publicKey: AttestationPublicKey;
  /** The signer the build step uses. */
  readonly signer: AttestationSigner;
  /** Where the key came from (`env`, `file`, `data-dir`, `generated`), for the start-up log. */
  readonly source: AttestationKey['source'];
}

/** Loads the attestation key per configuration (see `engine/tx/attestation-key.ts`). */
export function openAttestation(dataDir: string, env: NodeJS.ProcessEnv = process.env): AttestationService {
  const key = loadAttestationKey(dataDir, env);
  const signer = new AttestationSigner(key);
  return { publicKey: signer.publicKey, signer, source: key.source };
}
