import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

import { WebSocketServer, type ServerOptions } from 'ws';

import { GatewayClose } from '@sdkpp/protocol';
import type { EmulatorLog } from '../log.js';
import { PlainEncoder, ZlibStreamEncoder, type FrameEncoder } from './compression.js';
import type { GatewayHub } from './GatewayHub.js';

/** The path of the gateway WebSocket on the emulator's HTTP server. */
export const GATEWAY_PATH = '/gateway';

/**
 * ws buffers at most this much of one message. Protocol-wise anything over 4096 bytes is refused with
 * 4002 by the connection's own check; this cap only bounds memory. A message larger than it is refused
 * by ws itself with 1009.
 */
const WS_MAX_PAYLOAD = 1024 * 1024;
/** How long ws waits for a client's answer to a close frame before destroying the socket. */
const WS_CLOSE_TIMEOUT_MS = 2000;

/** The parsed connection query, or why it is refused. */
export type GatewayQuery = { ok: true; encoder: () => FrameEncoder } | { ok: false; reason: string };

/**
 * Checks `v`, `encoding` and `compress`. `v=10` is required; `encoding` defaults to json as on the platform
 * but only json is served (ETF is not); `compress` may be absent or `zlib-stream`.
 */
export function parseGatewayQuery(search: string): GatewayQuery {
  const params = new URLSearchParams(search);
  if (params.get('v') !== '10') return { ok: false, reason: 'Invalid API version: use v=10' };
  const encoding = params.get('encoding') ?? 'json';
  if (encoding !== 'json') {
    return { ok: false, reason: `encoding=${encoding.slice(0, 20)} is not served; only json is` };
  }
  const compress = params.get('compress');
  if (compress === null || compress === '') return { ok: true, encoder: () => new PlainEncoder() };
  if (compress === 'zlib-stream') return { ok: true, encoder: () => new ZlibStreamEncoder() };
  return { ok: false, reason: `compress=${compress.slice(0, 20)} is not served; use zlib-stream or none` };
}

function refuseUpgrade(socket: Duplex, status: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

/** Serves the gateway on the HTTP server's `upgrade` event, at {@link GATEWAY_PATH}. */
export class GatewayServer {
  readonly #wss: WebSocketServer;
  readonly #hub: GatewayHub;
  readonly #log: EmulatorLog;

  constructor(hub: GatewayHub, log: EmulatorLog) {
    this.#hub = hub;
    this.#log = log;
    // closeTimeout is a ws 8 server option that @types/ws does not list yet.
    const options: ServerOptions & { closeTimeout: number } = {
      noServer: true,
      maxPayload: WS_MAX_PAYLOAD,
      perMessageDeflate: false,
      closeTimeout: WS_CLOSE_TIMEOUT_MS,
    };
    this.#wss = new WebSocketServer(options);
    this.#wss.on('error', () => {
      // Only emitted in server mode, which noServer does not use; a listener keeps it from being fatal.
    });
  }

  /** Stops accepting sockets. Open sockets are the hub's to close. */
  close(): void {
    this.#wss.close();
  }

  /** Destroys any socket still open (e.g. one being refused with 4012), so the port can be freed. */
  terminateAll(): void {
    for (const ws of this.#wss.clients) ws.terminate();
  }

  /** Takes one upgrade request of the emulator's HTTP server: the gateway's path, or 404. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => {
      // A client that resets during the handshake must not take the process down.
    });
    const target = req.url ?? '/';
    const q = target.indexOf('?');
    const path = q < 0 ? target : target.slice(0, q);
    if (path !== GATEWAY_PATH && path !== `${GATEWAY_PATH}/`) {
      refuseUpgrade(socket, '404 Not Found');
      return;
    }
    const query = parseGatewayQuery(q < 0 ? '' : target.slice(q + 1));
    this.#wss.handleUpgrade(req, socket, head, (ws) => {
      if (!query.ok) {
        ws.on('error', () => {
          // Nothing to do: the socket is being refused anyway.
        });
        this.#log.line('gateway', `connection refused: ${query.reason}`);
        ws.close(GatewayClose.InvalidApiVersion, query.reason);
        return;
      }
      this.#hub.accept(ws, query.encoder());
    });
  }
}
