// A TLS front for the emulator's voice gateway, for clients that only speak wss:// (@discordjs/voice builds
// `wss://${endpoint}?v=8` from VOICE_SERVER_UPDATE): it terminates TLS on a loopback port with a
// certificate made for this run and pipes the bytes to the emulator's plain voice gateway. The client
// process trusts the certificate through NODE_EXTRA_CA_CERTS. openssl (the command) makes the certificate.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer } from 'node:tls';

/** A running TLS front. */
export interface TlsFront {
  /** `127.0.0.1:<port>`, what the client is given as its voice endpoint. */
  readonly endpoint: string;
  /** The certificate's PEM file, for NODE_EXTRA_CA_CERTS. */
  readonly caFile: string;
  /** Closes the server and every piped connection, and removes the certificate. */
  close(): Promise<void>;
}

/** Starts a TLS front on 127.0.0.1 for the plain TCP service at `target` (`host:port`). */
export async function startTlsFront(target: string): Promise<TlsFront> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sdkpp-bench-tls-'));
  const keyFile = path.join(dir, 'key.pem');
  const caFile = path.join(dir, 'cert.pem');
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      caFile,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { encoding: 'utf8', timeout: 10_000 },
  );
  if (made.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(
      `openssl could not make the TLS front's certificate: ${made.stderr || made.error?.message}`,
    );
  }
  const [host = '127.0.0.1', port = '0'] = target.split(':');
  const sockets = new Set<Socket>();
  const server = createServer({ key: readFileSync(keyFile), cert: readFileSync(caFile) }, (client) => {
    const upstream = connect(Number(port), host);
    sockets.add(client);
    sockets.add(upstream);
    const end = (): void => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve();
    });
  });
  const address = server.address();
  const listening = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    endpoint: `127.0.0.1:${listening}`,
    caFile,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
