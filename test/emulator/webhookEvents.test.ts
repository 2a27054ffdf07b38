import { verifyKey } from 'discord-interactions';
import { describe, expect, it } from 'vitest';

import { createWebhookEventsHandler, type WebhookEvent } from '../../packages/sdkpp/src/backend/index.js';
import { startEmulator, type Emulator } from '../../packages/emulator/src/index.js';
import { signIn } from './helpers.js';
import {
  recordingReceiver,
  until,
  webhookReceiversAfterEach,
  type ReceivedWebhook,
} from './webhookReceivers.js';

// The emulator's webhook events, received over loopback HTTP: by a bare recorder whose requests
// discord-interactions' own verifier checks, and by sdkpp/backend's receiver.

let emu: Emulator | undefined;
const receivers = webhookReceiversAfterEach();

describe('webhook events', () => {
  it('sends APPLICATION_AUTHORIZED on consent and APPLICATION_DEAUTHORIZED on revoke, signed as the platform signs', async () => {
    const received: ReceivedWebhook[] = [];
    const url = await receivers.listen(recordingReceiver(received));
    emu = await receivers.start({ autoConsent: true, users: 2, webhookEventsUrl: url });
    const alice = emu.users.find((u) => u.username === 'alice');
    await signIn(emu, 'alice');
    const authorized = await until('APPLICATION_AUTHORIZED', () => received[0]);
    expect(
      await verifyKey(authorized.body, authorized.signature, authorized.timestamp, emu.applicationPublicKey),
    ).toBe(true);
    const parsed = JSON.parse(authorized.body) as {
      version: number;
      application_id: string;
      type: number;
      event: { type: string; timestamp: string; data: { user: { id: string }; scopes: string[] } };
    };
    expect(parsed).toMatchObject({ version: 1, application_id: emu.applicationId, type: 1 });
    expect(parsed.event.type).toBe('APPLICATION_AUTHORIZED');
    expect(parsed.event.data.user.id).toBe(alice?.id);
    expect(parsed.event.data.scopes).toContain('openid');

    emu.revokeUserTokens(alice?.id ?? '');
    const deauthorized = await until('APPLICATION_DEAUTHORIZED', () => received[1]);
    expect(
      await verifyKey(
        deauthorized.body,
        deauthorized.signature,
        deauthorized.timestamp,
        emu.applicationPublicKey,
      ),
    ).toBe(true);
    expect(JSON.parse(deauthorized.body)).toMatchObject({
      event: { type: 'APPLICATION_DEAUTHORIZED', data: { user: { id: alice?.id, username: 'alice' } } },
    });
    // A tampered body fails the independent verifier.
    expect(
      await verifyKey(
        deauthorized.body.replace('alice', 'mallory'),
        deauthorized.signature,
        deauthorized.timestamp,
        emu.applicationPublicKey,
      ),
    ).toBe(false);
    expect(emu.webhookDeliveries().map((d) => [d.eventType, d.state, d.attempts, d.status])).toEqual([
      ['APPLICATION_AUTHORIZED', 'delivered', 1, 204],
      ['APPLICATION_DEAUTHORIZED', 'delivered', 1, 204],
    ]);
  });

  it('reaches sdkpp/backend typed, and sends again after a failed attempt', async () => {
    emu = await receivers.start({ autoConsent: true, users: 2 });
    const events: WebhookEvent[] = [];
    let failures = 1;
    const url = await receivers.listen(
      createWebhookEventsHandler({
        publicKey: emu.applicationPublicKey,
        onEvent: (event) => {
          if (failures-- > 0) throw new Error('the database is restarting');
          events.push(event);
        },
      }),
    );
    expect(emu.webhookDeliveries()).toEqual([]);
    emu.setWebhookEventsUrl(url);
    const bob = emu.users.find((u) => u.username === 'bob');
    emu.banUser(bob?.id ?? '');
    const event = await until('the retried event', () => events[0]);
    expect(event.type).toBe('APPLICATION_DEAUTHORIZED');
    if (event.type === 'APPLICATION_DEAUTHORIZED') expect(event.data.user.id).toBe(bob?.id);
    // The handler ran before the 204 reached the emulator: wait for the delivery to be marked.
    await until('the delivery marked', () => emu?.webhookDeliveries().find((d) => d.state !== 'pending'));
    expect(emu.webhookDeliveries()).toMatchObject([
      { eventType: 'APPLICATION_DEAUTHORIZED', state: 'delivered', attempts: 2, status: 204, error: null },
    ]);
  });

  it('refuses a webhook events URL that is not http(s)', async () => {
    await expect(startEmulator({ webhookEventsUrl: 'ftp://example.test/' })).rejects.toThrow(
      /http: or https:/,
    );
    emu = await receivers.start({ users: 1 });
    expect(() => emu?.setWebhookEventsUrl('not a url')).toThrow(/http: or https:/);
    emu.setWebhookEventsUrl(null);
    expect(emu.applicationPublicKey).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('lobby and game direct message webhook events', () => {
  it('sends LOBBY_MESSAGE_* and GAME_DIRECT_MESSAGE_* typed to sdkpp/backend', async () => {
    emu = await receivers.start({ autoConsent: true, users: 2 });
    const events: WebhookEvent[] = [];
    emu.setWebhookEventsUrl(
      await receivers.listen(
        createWebhookEventsHandler({
          publicKey: emu.applicationPublicKey,
          onEvent: (event) => {
            events.push(event);
          },
        }),
      ),
    );
    const bot = `Bot ${emu.botToken}`;
    const [alice, bob] = emu.users;
    const headers = { 'content-type': 'application/json', authorization: bot };
    const lobby = (await (
      await fetch(`${emu.api}/lobbies`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ members: [{ id: alice?.id }] }),
      })
    ).json()) as { id: string };
    const sent = (await (
      await fetch(`${emu.api}/lobbies/${lobby.id}/messages`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ content: 'gg', metadata: { round: '3' } }),
      })
    ).json()) as { id: string };
    await fetch(`${emu.api}/lobbies/${lobby.id}/messages/${sent.id}/moderation-metadata`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ flagged: 'no' }),
    });
    emu.befriend('alice', 'bob');
    const token = (await signIn(emu, 'alice')).access_token;
    const dm = await fetch(`${emu.api}/users/${bob?.id ?? ''}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ content: 'rematch?' }),
    });
    expect(dm.status).toBe(200);
    await until('the direct message event', () =>
      events.find((e) => e.type === 'GAME_DIRECT_MESSAGE_CREATE'),
    );
    // Signing alice in installed the app to her: APPLICATION_AUTHORIZED comes along.
    const types = events
      .map((e) => e.type)
      .filter((t) => t !== 'APPLICATION_AUTHORIZED')
      .sort();
    expect(types).toEqual(['GAME_DIRECT_MESSAGE_CREATE', 'LOBBY_MESSAGE_CREATE', 'LOBBY_MESSAGE_UPDATE']);
    const created = events.find((e) => e.type === 'LOBBY_MESSAGE_CREATE');
    if (created?.type === 'LOBBY_MESSAGE_CREATE') {
      expect(created.data).toMatchObject({
        id: sent.id,
        lobby_id: lobby.id,
        content: 'gg',
        metadata: { round: '3' },
      });
    }
    const direct = events.find((e) => e.type === 'GAME_DIRECT_MESSAGE_CREATE');
    if (direct?.type === 'GAME_DIRECT_MESSAGE_CREATE') {
      expect(direct.data).toMatchObject({
        content: 'rematch?',
        author: { id: alice?.id },
        recipient_id: bob?.id,
      });
    }
  });
});
