import type { Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { createSecureContext, TLSSocket, type SecureContextOptions } from 'node:tls';

/** A TLS record's first byte: a handshake. A plain HTTP request starts with a letter. */
const TLS_HANDSHAKE = 0x16;

/** How {@link tlsOrPlain} bounds and reports the connections it refuses. */
export interface TlsOrPlainOptions {
  /**
   * How long a new connection may stay silent before its first byte decides what it speaks, and how long a
   * TLS handshake may take after that.
   */
  firstByteMs: number;
  /** Told when a connection is closed for its silence or a failed handshake. */
  onRefused?: (why: string) => void;
}

/**
 * One TCP port for both `ws://` and `wss://`: each connection's first byte tells a TLS handshake from plain
 * HTTP, and the HTTP server gets the plain socket or the decrypted one. Clients that dial only `wss://`
 * (@discordjs/voice) and the SDK's plain `ws://` share the endpoint VOICE_SERVER_UPDATE names.
 */
export function tlsOrPlain(
  http: HttpServer,
  tls: SecureContextOptions | null,
  options: TlsOrPlainOptions,
): NetServer {
  const context = tls ? createSecureContext(tls) : null;
  const refuse = (socket: Socket, why: string): void => {
    options.onRefused?.(why);
    socket.destroy();
  };
  const secure = (socket: Socket): void => {
    const wrapped = new TLSSocket(socket, {
      isServer: true,
      ...(context ? { secureContext: context } : {}),
      ALPNProtocols: ['http/1.1'],
    });
    // The handshake has the same bound as the first byte: a peer that starts one and stalls is cut off.
    const timer = setTimeout(() => {
      wrapped.destroy();
      refuse(socket, `TLS handshake failed: not done within ${options.firstByteMs} ms`);
    }, options.firstByteMs);
    wrapped.once('secure', () => {
      clearTimeout(timer);
      http.emit('connection', wrapped);
    });
    wrapped.on('error', (error: Error) => {
      clearTimeout(timer);
      wrapped.destroy();
      if (!socket.destroyed) refuse(socket, `TLS handshake failed: ${error.message}`);
    });
  };
  return createNetServer({ pauseOnConnect: true }, (socket: Socket) => {
    socket.on('error', () => {
      // A reset before the first byte must not take the process down.
    });
    if (!context) {
      http.emit('connection', socket);
      socket.resume();
      return;
    }
    const timer = setTimeout(() => {
      refuse(socket, `nothing sent within ${options.firstByteMs} ms`);
    }, options.firstByteMs);
    socket.once('readable', () => {
      clearTimeout(timer);
      const first = socket.read(1) as Buffer | null;
      if (first === null) {
        socket.destroy();
        return;
      }
      socket.unshift(first);
      if (first[0] === TLS_HANDSHAKE) secure(socket);
      else http.emit('connection', socket);
    });
  });
}
