import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { verifyKey } from 'discord-interactions';
import { afterEach, describe, expect, it } from 'vitest';

import {
  createInteractionsHandler,
  createWebhookEventsHandler,
  InteractionCallbackType,
  InteractionType,
  LoggingSeverity,
  type OtherWebhookEvent,
  type RequestHandler,
  type WebhookEvent,
} from '../../../packages/sdkpp/src/backend/index.js';

// sdkpp/backend's receiving ends over real loopback HTTP, with requests signed by a real Ed25519 key the way
// the platform signs them; discord-interactions' own verifier checks that the signing is the platform's.

const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const PUBLIC_HEX = Buffer.from(publicKey.export({ format: 'jwk' }).x ?? '', 'base64url').toString('hex');
const NOW_S = 1_790_000_000;

interface Sent {
  status: number;
  body: string;
}

function signed(
  body: string,
  timestamp = String(NOW_S),
  key: KeyObject = privateKey,
): Record<string, string> {
  const signature = sign(null, Buffer.from(timestamp + body), key).toString('hex');
  return {
    'x-signature-ed25519': signature,
    'x-signature-timestamp': timestamp,
    'content-type': 'application/json',
  };
}

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

async function serve(
  handler: RequestHandler,
): Promise<(body: string, headers: Record<string, string>) => Promise<Sent>> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return async (body, headers) => {
    const response = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body, headers });
    return { status: response.status, body: await response.text() };
  };
}

describe('createInteractionsHandler', () => {
  it('answers PING with PONG and passes a command to the game, signed as discord-interactions verifies', async () => {
    const seen: string[] = [];
    const post = await serve(
      createInteractionsHandler({
        publicKey: PUBLIC_HEX,
        now: () => NOW_S * 1000,
        onInteraction: (interaction) => {
          seen.push(`${interaction.type}:${String(interaction.data?.name)}`);
          return { type: InteractionCallbackType.ChannelMessageWithSource, data: { content: 'pong!' } };
        },
      }),
    );
    const ping = JSON.stringify({ id: '1', application_id: '2', type: InteractionType.Ping, token: 't' });
    const headers = signed(ping);
    // The independent verifier agrees with the signing this test does, so the format is the platform's.
    expect(await verifyKey(ping, headers['x-signature-ed25519'] ?? '', String(NOW_S), PUBLIC_HEX)).toBe(true);
    expect(await post(ping, headers)).toEqual({ status: 200, body: JSON.stringify({ type: 1 }) });

    const command = JSON.stringify({
      id: '3',
      application_id: '2',
      type: 2,
      token: 't',
      data: { name: 'roll' },
    });
    const answer = await post(command, signed(command));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ type: 4, data: { content: 'pong!' } });
    expect(seen).toEqual(['2:roll']);
  });

  it('refuses tampered, unsigned, stale, replayed and oversized requests with the reason, and logs no secret', async () => {
    const lines: string[] = [];
    let calls = 0;
    const post = await serve(
      createInteractionsHandler({
        publicKey: PUBLIC_HEX,
        now: () => NOW_S * 1000,
        maxBodyBytes: 4096,
        logCallback: (line) => lines.push(line),
        onInteraction: () => {
          calls++;
          return { type: InteractionCallbackType.DeferredChannelMessageWithSource };
        },
      }),
    );
    const body = JSON.stringify({ id: '9', application_id: '2', type: 2, token: 'secret-token', data: {} });
    const headers = signed(body);
    const tampered = body.replace('"9"', '"8"');
    expect(await verifyKey(tampered, headers['x-signature-ed25519'] ?? '', String(NOW_S), PUBLIC_HEX)).toBe(
      false,
    );
    expect(await post(tampered, headers)).toMatchObject({ status: 401, body: '{"message":"bad-signature"}' });
    expect(await post(body, { 'content-type': 'application/json' })).toMatchObject({ status: 401 });
    const old = String(NOW_S - 301);
    expect(await post(body, signed(body, old))).toMatchObject({ status: 401, body: '{"message":"stale"}' });
    const other = generateKeyPairSync('ed25519').privateKey;
    expect(await post(body, signed(body, String(NOW_S), other))).toMatchObject({ status: 401 });
    expect(calls).toBe(0);
    expect(await post(body, headers)).toMatchObject({ status: 200 });
    expect(await post(body, headers)).toMatchObject({ status: 401, body: '{"message":"replayed"}' });
    const big = JSON.stringify({
      id: '10',
      application_id: '2',
      type: 2,
      token: 't',
      data: { x: 'y'.repeat(5000) },
    });
    expect(await post(big, signed(big))).toMatchObject({ status: 413 });
    expect(calls).toBe(1);
    expect(lines.length).toBeGreaterThanOrEqual(6);
    const signature = headers['x-signature-ed25519'] ?? '';
    for (const line of lines) {
      expect(line).not.toContain(signature.slice(0, 16));
      expect(line).not.toContain('secret-token');
    }
  });

  it('answers 500 when the game fails, and keeps serving', async () => {
    let fail = true;
    const post = await serve(
      createInteractionsHandler({
        publicKey: PUBLIC_HEX,
        now: () => NOW_S * 1000,
        onInteraction: () => {
          if (fail) throw new Error('database down');
          return { type: InteractionCallbackType.DeferredUpdateMessage };
        },
      }),
    );
    const first = JSON.stringify({ id: '1', application_id: '2', type: 3, token: 't', data: {} });
    expect((await post(first, signed(first))).status).toBe(500);
    fail = false;
    const second = JSON.stringify({ id: '2', application_id: '2', type: 3, token: 't', data: {} });
    expect(await post(second, signed(second))).toEqual({ status: 200, body: '{"type":6}' });
  });

  it('refuses a public key that is not 64 hex digits', () => {
    expect(() =>
      createInteractionsHandler({
        publicKey: 'abc',
        onInteraction: () => ({ type: InteractionCallbackType.Pong }),
      }),
    ).toThrow(/64 hex digits/);
  });
});

describe('createWebhookEventsHandler', () => {
  it('acknowledges PING, hands APPLICATION_DEAUTHORIZED to the game typed, and the rest to onUnknownEvent', async () => {
    const known: WebhookEvent[] = [];
    const other: OtherWebhookEvent[] = [];
    let failNext = false;
    const post = await serve(
      createWebhookEventsHandler({
        publicKey: PUBLIC_HEX,
        now: () => NOW_S * 1000,
        onEvent: (event) => {
          if (failNext) throw new Error('retry me');
          known.push(event);
        },
        onUnknownEvent: (event) => {
          other.push(event);
        },
      }),
    );
    const ping = JSON.stringify({ version: 1, application_id: '2', type: 0 });
    expect(await post(ping, signed(ping))).toEqual({ status: 204, body: '' });
    const deauthorized = JSON.stringify({
      version: 1,
      application_id: '2',
      type: 1,
      event: {
        type: 'APPLICATION_DEAUTHORIZED',
        timestamp: '2026-11-26T12:00:00.000000+00:00',
        data: { user: { id: '42', username: 'alice' } },
      },
    });
    expect(await post(deauthorized, signed(deauthorized))).toEqual({ status: 204, body: '' });
    const event = known[0];
    expect(event?.type).toBe('APPLICATION_DEAUTHORIZED');
    if (event?.type === 'APPLICATION_DEAUTHORIZED') expect(event.data.user.id).toBe('42');
    // An event type this SDK does not know yet (QUEST_USER_ENROLLMENT is typed now: see webhookEvents.test.ts).
    const later = JSON.stringify({
      version: 1,
      application_id: '2',
      type: 1,
      event: { type: 'SOME_LATER_EVENT', timestamp: '2026-11-26T12:00:01Z', data: { id: '7' } },
    });
    expect((await post(later, signed(later))).status).toBe(204);
    expect(other.map((e) => e.type)).toEqual(['SOME_LATER_EVENT']);
    // A failing handler answers 500, so the platform delivers the event again.
    failNext = true;
    const again = deauthorized.replace('"42"', '"43"');
    expect((await post(again, signed(again))).status).toBe(500);
    const broken = JSON.stringify({ version: 1, application_id: '2', type: 1, event: { data: {} } });
    expect((await post(broken, signed(broken))).status).toBe(400);
    expect(known).toHaveLength(1);
  });

  it('cuts off a sender that stops sending its body', async () => {
    server = createServer(
      createWebhookEventsHandler({
        publicKey: PUBLIC_HEX,
        readTimeoutMs: 200,
        logSeverity: LoggingSeverity.Warning,
        onEvent: () => undefined,
      }),
    );
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { port, host: '127.0.0.1', method: 'POST', headers: { 'content-length': '100' } },
        (res) => resolve(res.statusCode ?? 0),
      );
      req.on('error', reject);
      req.write('{"ver'); // and never the rest
    });
    expect(status).toBe(408);
  });
});
