import WebSocket from 'ws';

/** The part of a `ws` WebSocket the gateway client uses; a seam for unit tests of the gateway alone. */
export interface GatewaySocket {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  on(event: 'open', listener: () => void): unknown;
  on(event: 'message', listener: (data: WebSocket.RawData, isBinary: boolean) => void): unknown;
  on(event: 'close', listener: (code: number, reason: Buffer) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeAllListeners(): unknown;
}

/** Opens a socket to a URL. */
export type GatewaySocketFactory = (url: string) => GatewaySocket;

/** Largest message the SDK accepts from the gateway; READY with many lobbies and friends stays far below it. */
const MAX_SERVER_PAYLOAD_BYTES = 16 * 1024 * 1024;

/** The real factory: a `ws` WebSocket with a bounded message size. */
export const defaultGatewaySocketFactory: GatewaySocketFactory = (url) =>
  new WebSocket(url, { maxPayload: MAX_SERVER_PAYLOAD_BYTES, handshakeTimeout: 15_000 });
