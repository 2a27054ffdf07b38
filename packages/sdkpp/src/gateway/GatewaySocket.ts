import WebSocket from 'ws';

/**
 * A received message as a `ws` WebSocket delivers it: one buffer, the buffers of a fragmented message, or an
 * ArrayBuffer. Spelled out here (it is `ws`'s `RawData`) so that the published types need no `@types/ws`.
 */
export type GatewaySocketData = Buffer | ArrayBuffer | Buffer[];

/** The part of a `ws` WebSocket the gateway client uses; a seam for unit tests of the gateway alone. */
export interface GatewaySocket {
  /** Sends one text frame (a JSON gateway payload). */
  send(data: string): void;
  /** Starts the closing handshake, with a WebSocket close code (e.g. 1000 for a normal close) and reason. */
  close(code?: number, reason?: string): void;
  /** Drops the connection at once, without a closing handshake (used when the gateway stops answering). */
  terminate(): void;
  /** Called once the connection is open. */
  on(event: 'open', listener: () => void): unknown;
  /** Called for each frame received; `isBinary` is false for the gateway's JSON text frames. */
  on(event: 'message', listener: (data: GatewaySocketData, isBinary: boolean) => void): unknown;
  /** Called once the connection is closed, with the close code and reason the server sent. */
  on(event: 'close', listener: (code: number, reason: Buffer) => void): unknown;
  /** Called on a connection or protocol error; a `'close'` follows. */
  on(event: 'error', listener: (error: Error) => void): unknown;
  /** Detaches every listener, so a socket being replaced reports nothing more. */
  removeAllListeners(): unknown;
}

/** Opens a socket to a URL. */
export type GatewaySocketFactory = (url: string) => GatewaySocket;

/** Largest message the SDK accepts from the gateway; READY with many lobbies and friends stays far below it. */
const MAX_SERVER_PAYLOAD_BYTES = 16 * 1024 * 1024;

/** The real factory: a `ws` WebSocket with a bounded message size. */
export const defaultGatewaySocketFactory: GatewaySocketFactory = (url) =>
  new WebSocket(url, { maxPayload: MAX_SERVER_PAYLOAD_BYTES, handshakeTimeout: 15_000 });
