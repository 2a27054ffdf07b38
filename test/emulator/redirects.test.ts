import { createServer, type IncomingMessage, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from 'vitest';

import {
  createInteractionsHandler,
  InteractionCallbackType,
} from '../../packages/sdkpp/src/backend/index.js';
import type { Emulator } from '../../packages/emulator/src/index.js';
import { signIn } from './helpers.js';
import { closeAfterEach, loggedEmulator, withCommand } from './lobbyHelpers.js';

// The platform does not follow a redirect from an application's endpoint, so the emulator must not either:
// following one re-sends the signed body, interaction token included, to wherever the endpoint points.

const { running, cleanups } = closeAfterEach();

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function listen(handler: RequestListener): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/**
 * An endpoint that answers everything with a 307 to a second server, which would answer as a good endpoint
 * does (`elsewhere`) if it were ever reached; `reached` counts what it received, `sent` keeps the bodies the
 * first one was sent.
 */
async function redirectingEndpoint(elsewhere: RequestListener): Promise<{
  url: string;
  sent: string[];
  reached: () => number;
}> {
  let reached = 0;
  const target = await listen((req, res) => {
    reached += 1;
    elsewhere(req, res);
  });
  const sent: string[] = [];
  const url = await listen((req, res) => {
    void bodyOf(req).then((body) => {
      sent.push(body);
      res.writeHead(307, { Location: `${target}elsewhere` }).end();
    });
  });
  return { url, sent, reached: () => reached };
}

/** An interactions endpoint that answers PINGs and commands, for the application whose key `publicKey` gives. */
function goodInteractionsEndpoint(publicKey: () => string): RequestListener {
  return (req, res) => {
    createInteractionsHandler({
      publicKey: publicKey(),
      onInteraction: () => ({
        type: InteractionCallbackType.ChannelMessageWithSource,
        data: { content: 'answered elsewhere' },
      }),
    })(req, res);
  };
}

/** Waits until `probe` gives a value. */
async function until<T>(what: string, probe: () => T | undefined): Promise<T> {
  for (let i = 0; i < 200; i += 1) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function general(emu: Emulator): string {
  return emu.guilds()[0]?.channels.find((c) => c.name === 'general')?.id ?? '';
}

describe('redirects from application endpoints', () => {
  it('fails an interaction whose endpoint answers 307, without sending it on or logging its token', async () => {
    let key = '';
    const endpoint = await redirectingEndpoint(goodInteractionsEndpoint(() => key));
    // Set as an option would, without the portal check (which has its own test below).
    const { emu, logs } = await loggedEmulator(running, { users: 2, interactionsEndpointUrl: endpoint.url });
    key = emu.applicationPublicKey;
    await withCommand(emu);
    const interaction = await emu.invokeCommand({ user: 'alice', command: 'score', channel: general(emu) });
    expect(interaction.delivery).toMatch(/^failed: .*307.*redirects are not followed/);
    expect(interaction.responseType).toBeNull();
    expect(endpoint.sent).toHaveLength(1);
    expect(endpoint.reached()).toBe(0);
    const token = (JSON.parse(endpoint.sent[0] ?? '{}') as { token?: string }).token ?? '';
    expect(token).not.toBe('');
    const line = logs.find((l) => l.includes(`interaction ${interaction.id} not delivered`));
    expect(line).toMatch(/307.*redirects are not followed/);
    expect(logs.filter((l) => l.includes(token))).toEqual([]);
  });

  it('fails the endpoint check when the endpoint answers 307, and sends nothing on', async () => {
    let key = '';
    const endpoint = await redirectingEndpoint(goodInteractionsEndpoint(() => key));
    const { emu, logs } = await loggedEmulator(running, { users: 2 });
    key = emu.applicationPublicKey;
    await expect(emu.setInteractionsEndpointUrl(endpoint.url)).rejects.toThrow(
      /307.*redirects are not followed/,
    );
    expect(endpoint.sent).toHaveLength(1);
    expect(endpoint.reached()).toBe(0);
    expect(logs.some((l) => /interactions endpoint .*307.*redirects are not followed/.test(l))).toBe(true);
  });

  it('fails a webhook event delivery answered 307, and sends nothing on', async () => {
    const endpoint = await redirectingEndpoint((_req, res) => {
      res.writeHead(204).end();
    });
    const { emu, logs } = await loggedEmulator(running, { users: 2, webhookEventsUrl: endpoint.url });
    await signIn(emu, 'alice');
    const delivery = await until('the first attempt', () =>
      emu.webhookDeliveries().find((d) => d.error !== null || d.state !== 'pending'),
    );
    expect(delivery).toMatchObject({ eventType: 'APPLICATION_AUTHORIZED', status: 307, state: 'pending' });
    expect(delivery.error).toMatch(/307.*redirects are not followed/);
    expect(endpoint.sent).toHaveLength(1);
    expect(endpoint.reached()).toBe(0);
    expect(logs.some((l) => /APPLICATION_AUTHORIZED: .*307.*redirects are not followed/.test(l))).toBe(true);
  });
});
