/**
 * Picks the Geyser transport named by configuration.
 */
import { EngineError } from '../errors.js';
import { createGrpcJsTransport } from './geyser-grpcjs.js';
import { createNapiTransport } from './geyser-napi.js';
import type { GeyserEndpoint, GeyserTransport, GeyserTransportName } from './geyser-transport.js';

/** Creates the transport `name` for an endpoint. */
export async function createGeyserTransport(name: GeyserTransportName, endpoint: GeyserEndpoint): Promise<GeyserTransport> {
  if (name === 'napi') return createNapiTransport(endpoint);
  if (name === 'grpc-js') return createGrpcJsTransport(endpoint);
  throw new EngineError('BAD_CONFIG', `unknown GEYSER_TRANSPORT ${String(name)} (napi | grpc-js)`);
}
