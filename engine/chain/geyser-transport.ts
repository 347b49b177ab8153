/**
 * The one interface both Geyser transports implement: the native napi client and @grpc/grpc-js with the
 * package's codecs. Ingest code sees only this.
 */
import type { SubscribeRequest, SubscribeUpdate } from './yellowstone.js';

/** Which transport: the official native client, or grpc-js with the exported codecs. */
export type GeyserTransportName = 'napi' | 'grpc-js';

/** Callbacks of one Subscribe stream. */
export interface GeyserHandlers {
  onUpdate(update: SubscribeUpdate): void;
  /** Called once when the stream ends for any reason (null error: closed by us). */
  onEnd(error: Error | null): void;
}

/** One live Subscribe stream. */
export interface GeyserSubscription {
  /** Sends a new request: replaces the filters, or pings when only `ping` is set. */
  write(request: SubscribeRequest): void;
  /** Closes the stream; `onEnd(null)` follows. */
  close(): void;
}

/** Connection settings of a Geyser endpoint. */
export interface GeyserEndpoint {
  readonly url: string;
  readonly xToken?: string;
}

/** A Geyser client. */
export interface GeyserTransport {
  readonly name: GeyserTransportName;
  /** Opens a Subscribe stream with a first request. */
  subscribe(request: SubscribeRequest, handlers: GeyserHandlers): Promise<GeyserSubscription>;
  /** Releases the connection. */
  close(): void;
}

/** An empty request to fill: every map present, as the protocol's codecs expect. */
export function emptySubscribeRequest(): SubscribeRequest {
  return {
    accounts: {},
    slots: {},
    transactions: {},
    transactionsStatus: {},
    blocks: {},
    blocksMeta: {},
    entry: {},
    accountsDataSlice: [],
  };
}
