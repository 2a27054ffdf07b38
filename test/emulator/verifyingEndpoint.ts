import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { verifyKey } from 'discord-interactions';

/** One request the endpoint received, after discord-interactions checked its signature. */
export interface ReceivedInteraction {
  /** Whether the signature verified with the key the endpoint was given. */
  verified: boolean;
  /** The interaction type (1 PING, 2 command, …), or null for a body that was not JSON. */
  type: number | null;
  /** The parsed body. */
  body: Record<string, unknown> | null;
}

/**
 * An interactions endpoint as an app would write it with the `discord-interactions` package: every request's
 * Ed25519 signature is checked against `publicKey` (the key the test got from the emulator, not from the
 * emulator's own code); a bad one gets 401, a PING gets PONG and anything else a message saying `reply`.
 * `publicKey` may change between requests (after a restart with another key, say).
 */
export async function verifyingEndpoint(
  publicKey: () => string,
  reply = 'verified',
): Promise<{ url: string; received: ReceivedInteraction[]; close(): Promise<void> }> {
  const received: ReceivedInteraction[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const raw = Buffer.concat(chunks);
        const signature = String(req.headers['x-signature-ed25519'] ?? '');
        const timestamp = String(req.headers['x-signature-timestamp'] ?? '');
        const verified = await verifyKey(raw, signature, timestamp, publicKey()).catch(() => false);
        let body: Record<string, unknown> | null = null;
        try {
          body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
        } catch {
          body = null;
        }
        const type = typeof body?.type === 'number' ? body.type : null;
        received.push({ verified, type, body });
        if (!verified) {
          res.writeHead(401).end('invalid request signature');
          return;
        }
        const answer = type === 1 ? { type: 1 } : { type: 4, data: { content: reply } };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/interactions`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
