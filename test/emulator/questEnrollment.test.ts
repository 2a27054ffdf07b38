import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { verifyKey } from 'discord-interactions';
import { afterEach, describe, expect, it } from 'vitest';

import {
  createWebhookEventsHandler,
  type RequestHandler,
  type WebhookEvent,
} from '../../packages/sdkpp/src/backend/index.js';
import { findHook } from '../../packages/emulator/src/hooks/index.js';
import { checkHookArgs } from '../../packages/emulator/src/hooks/hook.js';
import { startEmulator, type Emulator } from '../../packages/emulator/src/index.js';

// QUEST_USER_ENROLLMENT from the enrollInQuest admin hook, received over loopback HTTP by a bare recorder that
// discord-interactions' verifier checks, and by sdkpp/backend's receiver, typed.

const servers: Server[] = [];
let emu: Emulator | undefined;
afterEach(async () => {
  await emu?.close();
  emu = undefined;
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

async function listen(handler: RequestHandler): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function until<T>(what: string, probe: () => T | undefined): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('QUEST_USER_ENROLLMENT', () => {
  it('is sent signed to the webhook events URL when a user enrolls in a Quest', async () => {
    emu = await startEmulator({ users: 2 });
    const received: { signature: string; timestamp: string; body: string }[] = [];
    emu.setWebhookEventsUrl(
      await listen((request, response) => {
        void bodyOf(request).then((body) => {
          received.push({
            signature: String(request.headers['x-signature-ed25519']),
            timestamp: String(request.headers['x-signature-timestamp']),
            body,
          });
          response.writeHead(204).end();
        });
      }),
    );
    const alice = emu.users[0];
    const data = emu.enrollInQuest({ user: 'alice', questId: '1300000000000000001' });
    expect(data).toMatchObject({ user_id: alice?.id, quest_id: '1300000000000000001' });
    const got = await until('the event', () => received[0]);
    expect(await verifyKey(got.body, got.signature, got.timestamp, emu.applicationPublicKey)).toBe(true);
    const tampered = got.body.replace('1300000000000000001', '1300000000000000002');
    expect(await verifyKey(tampered, got.signature, got.timestamp, emu.applicationPublicKey)).toBe(false);
    expect(JSON.parse(got.body)).toMatchObject({
      version: 1,
      application_id: emu.applicationId,
      type: 1,
      event: {
        type: 'QUEST_USER_ENROLLMENT',
        data: {
          user_id: alice?.id,
          user: { id: alice?.id, username: 'alice' },
          quest_id: '1300000000000000001',
          enrolled_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
        },
      },
    });
    await until('the delivery marked', () => emu?.webhookDeliveries().find((d) => d.state === 'delivered'));
    expect(emu.webhookDeliveries()).toMatchObject([{ eventType: 'QUEST_USER_ENROLLMENT', attempts: 1 }]);

    // Unknown users and ids that are no snowflake are refused, and nothing is sent.
    expect(() => emu?.enrollInQuest({ user: 'nobody', questId: '1' })).toThrow(/no user/);
    expect(() => emu?.enrollInQuest({ user: 'bob', questId: 'quest-1' })).toThrow(/not a Quest id/);
    expect(emu.webhookDeliveries()).toHaveLength(1);
  });

  it('reaches sdkpp/backend typed, through the enrollInQuest admin hook', async () => {
    emu = await startEmulator({ users: 2 });
    const events: WebhookEvent[] = [];
    emu.setWebhookEventsUrl(
      await listen(
        createWebhookEventsHandler({
          publicKey: emu.applicationPublicKey,
          onEvent: (event) => {
            events.push(event);
          },
          onUnknownEvent: () => {
            throw new Error('QUEST_USER_ENROLLMENT is a known event');
          },
        }),
      ),
    );
    const hook = findHook('enrollInQuest');
    if (!hook) throw new Error('no enrollInQuest hook');
    expect(checkHookArgs(hook, { user: 'bob', questId: 'x' })).toMatchObject({ ok: false });
    const args = checkHookArgs(hook, { user: 'bob', questId: '1300000000000000009' });
    if (!args.ok) throw new Error(args.problems.join('; '));
    await hook.run(emu, args.args);
    const event = await until('the event', () => events[0]);
    expect(event.type).toBe('QUEST_USER_ENROLLMENT');
    if (event.type === 'QUEST_USER_ENROLLMENT') {
      expect(event.data.quest_id).toBe('1300000000000000009');
      expect(event.data.user_id).toBe(emu.users[1]?.id);
      expect(event.data.user?.username).toBe('bob');
    }
  });
});
