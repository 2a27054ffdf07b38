import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterEach } from 'vitest';

import type { RequestHandler } from '../../packages/sdkpp/src/backend/index.js';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../packages/emulator/src/index.js';

/** One request a {@link recordingReceiver} took: the signature headers as sent, and the raw body. */
export interface ReceivedWebhook {
  signature: string;
  timestamp: string;
  body: string;
}

/** The emulator and the webhook receivers of one test file's tests: see {@link webhookReceiversAfterEach}. */
export interface WebhookReceivers {
  /** Starts an emulator for the test; the one started last is closed after each test. */
  start(options?: EmulatorOptions): Promise<Emulator>;
  /** Serves `handler` on a loopback port until the test ends; resolves with its `/events` URL. */
  listen(handler: RequestHandler): Promise<string>;
}

/**
 * Registers an `afterEach` that closes the test's emulator and then its receivers (the order the two test
 * files that share this kept before), and returns both makers. Call it once, at the top of a test file.
 */
export function webhookReceiversAfterEach(): WebhookReceivers {
  const servers: Server[] = [];
  let emu: Emulator | undefined;
  afterEach(async () => {
    await emu?.close();
    emu = undefined;
    for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  });
  return {
    async start(options) {
      emu = await startEmulator(options);
      return emu;
    },
    async listen(handler) {
      const server = createServer(handler);
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
    },
  };
}

/** A request's body as text. */
export async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A bare receiver that checks nothing: it keeps each request in `received` and answers 204, so that a test
 * can check the signature with a verifier that is not the emulator's (discord-interactions').
 */
export function recordingReceiver(received: ReceivedWebhook[]): RequestHandler {
  return (request, response) => {
    void bodyOf(request).then((body) => {
      received.push({
        signature: String(request.headers['x-signature-ed25519']),
        timestamp: String(request.headers['x-signature-timestamp']),
        body,
      });
      response.writeHead(204).end();
    });
  };
}

/** Polls `probe` every 25 ms until it gives a value, for at most 5 s; the error names `what`. */
export async function until<T>(what: string, probe: () => T | undefined): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}
