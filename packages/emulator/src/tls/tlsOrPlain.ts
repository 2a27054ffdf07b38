import type { Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { createServer as createTlsServer, type SecureContextOptions } from 'node:tls';

/** A TLS record's first byte: a handshake. A plain HTTP request starts with a letter. */
const TLS_HANDSHAKE = 0x16;
/** How long a new connection may stay silent before its first byte decides what it speaks. */
const FIRST_BYTE_MS = 10_000;

/**
 * One TCP port for both `ws://` and `wss://`: each connection's first byte tells a TLS handshake from plain
 * HTTP, and the HTTP server gets the plain socket or the decrypted one. Clients that dial only `wss://`
 * (@discordjs/voice) and the SDK's plain `ws://` share the endpoint VOICE_SERVER_UPDATE names.
 */
export function tlsOrPlain(http: HttpServer, tls: SecureContextOptions | null): NetServer {
  const secure = tls
    ? createTlsServer({ ...tls, ALPNProtocols: ['http/1.1'] }, (socket) => {
        http.emit('connection', socket);
      })
    : null;
  secure?.on('tlsClientError', (_error, socket) => {
    socket.destroy();
  });
  return createNetServer({ pauseOnConnect: true }, (socket: Socket) => {
    socket.on('error', () => {
      // A reset before the first byte must not take the process down.
    });
    if (!secure) {
      http.emit('connection', socket);
      socket.resume();
      return;
    }
    const timer = setTimeout(() => socket.destroy(), FIRST_BYTE_MS);
    socket.once('readable', () => {
      clearTimeout(timer);
      const first = socket.read(1) as Buffer | null;
      if (first === null) {
        socket.destroy();
        return;
      }
      socket.unshift(first);
      if (first[0] === TLS_HANDSHAKE) secure.emit('connection', socket);
      else http.emit('connection', socket);
    });
  });
}
