/**
 * Signs swap attestations: Ed25519 over the v1 message (`attestation-layout.ts`), returned in the build response
 * as `{ version, domain, algorithm, publicKey, signature, message }` (public key and signature base58, message
 * base64: the exact bytes signed, so a client verifies them and then reads the fields out of them).
 */
import { createHash } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import bs58 from 'bs58';
import { ATTESTATION_ALGORITHM, ATTESTATION_DOMAIN, ATTESTATION_VERSION, encodeAttestation, type AttestedSwap } from './attestation-layout.js';
import type { AttestationKey } from './attestation-key.js';

/** The published key object (`GET /v1/attestation/pubkey`). */
export interface AttestationPublicKey {
  readonly version: typeof ATTESTATION_VERSION;
  readonly domain: typeof ATTESTATION_DOMAIN;
  readonly algorithm: typeof ATTESTATION_ALGORITHM;
  readonly publicKey: string;
}

/** The attestation of one build. */
export interface Attestation extends AttestationPublicKey {
  /** Ed25519 signature of `message`'s bytes, base58. */
  readonly signature: string;
  /** The signed v1 message, base64. */
  readonly message: string;
}

/** SHA-256 of a transaction's message bytes (what the attestation binds). */
export function messageHash(messageBytes: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(messageBytes).digest());
}

/** The signer of one service instance. */
export class AttestationSigner {
  /** The published key object. */
  readonly publicKey: AttestationPublicKey;
  private readonly seed: Uint8Array;

  constructor(key: Pick<AttestationKey, 'seed' | 'publicKey'>) {
    this.seed = key.seed;
    this.publicKey = Object.freeze({
      version: ATTESTATION_VERSION,
      domain: ATTESTATION_DOMAIN,
      algorithm: ATTESTATION_ALGORITHM,
      publicKey: bs58.encode(key.publicKey),
    });
  }

  /** Signs the v1 message of `swap`. */
  attest(swap: AttestedSwap): Attestation {
    const message = encodeAttestation(swap);
    const signature = ed25519.sign(message, this.seed);
    return { ...this.publicKey, signature: bs58.encode(signature), message: Buffer.from(message).toString('base64') };
  }
}
