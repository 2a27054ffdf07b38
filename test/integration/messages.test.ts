import { describe, expect, it } from 'vitest';

import { ChannelType, ClientNotReadyError, HttpError, ValidationError } from '../../src/index.js';
import { clientFor, emulatorFor, eventually, linkAndConnect, userAt } from './helpers.js';

const HISTORY_ROUTE = '/users/:user_id/messages';

describe('direct messages', () => {
  it('send, receive, edit and delete, with events on both sides', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));
    const bobSaw: string[] = [];
    bob.client.on('messageCreated', (id) => bobSaw.push(`created:${id}`));
    bob.client.on('messageUpdated', (id) => bobSaw.push(`updated:${id}`));
    bob.client.on('messageDeleted', (id, channelId) => bobSaw.push(`deleted:${id}:${channelId}`));

    const id = await alice.client.sendUserMessage(bob.user.id, 'hello bob', { mood: 'cheerful' });
    await eventually(() => bobSaw.length === 1, 5000, 'the message at Bob');
    expect(bobSaw).toEqual([`created:${id}`]);
    const received = bob.client.getMessageHandle(id);
    expect(received).toMatchObject({
      content: 'hello bob',
      authorId: alice.user.id,
      recipientId: bob.user.id,
      channelId: alice.user.id,
      applicationId: emulator.applicationId,
      sentFromGame: true,
      additionalName: null,
      lobbyId: null,
      editedTimestamp: 0,
    });
    expect(received?.metadata).toEqual({ mood: 'cheerful' });
    expect(received?.author?.displayName).toBe('Alice');
    expect(Math.abs((received?.sentTimestamp ?? 0) - Date.now())).toBeLessThan(10_000);
    const channel = bob.client.getChannelHandle(alice.user.id);
    expect(channel).toMatchObject({ id: alice.user.id, type: ChannelType.EphemeralDm, name: 'Alice' });
    // The sender holds the message too.
    expect(alice.client.getMessageHandle(id)?.channelId).toBe(bob.user.id);

    await alice.client.editUserMessage(bob.user.id, id, 'hello again');
    await eventually(() => received?.content === 'hello again', 5000, 'the edit');
    expect(received?.editedTimestamp).toBeGreaterThan(0);
    expect(bobSaw[1]).toBe(`updated:${id}`);

    await expect(bob.client.editUserMessage(alice.user.id, id, 'not mine')).rejects.toBeInstanceOf(
      ValidationError,
    );
    await alice.client.deleteUserMessage(bob.user.id, id);
    await eventually(() => bobSaw.length === 3, 5000, 'the delete');
    expect(bobSaw[2]).toBe(`deleted:${id}:${alice.user.id}`);
    expect(bob.client.getMessageHandle(id)).toBeUndefined();
  });

  it('caches history and asks the server only for what it does not hold', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));
    for (let i = 1; i <= 5; i += 1) await alice.client.sendUserMessage(bob.user.id, `message ${i}`);
    const requests = (): number => emulator.requestCount('GET', HISTORY_ROUTE);
    const before = requests();

    const first = await bob.client.getUserMessagesWithLimit(alice.user.id, 3);
    expect(first.map((m) => m.content)).toEqual(['message 3', 'message 4', 'message 5']);
    expect(requests()).toBe(before + 1);
    // Fewer than held: no request.
    expect((await bob.client.getUserMessagesWithLimit(alice.user.id, 2)).map((m) => m.content)).toEqual([
      'message 4',
      'message 5',
    ]);
    expect(requests()).toBe(before + 1);
    // More than held: one request, which also shows the history is complete.
    expect(await bob.client.getUserMessagesWithLimit(alice.user.id, 50)).toHaveLength(5);
    expect(requests()).toBe(before + 2);
    // The whole history is held and kept current by events: no more requests.
    const sixth = await alice.client.sendUserMessage(bob.user.id, 'message 6');
    await eventually(() => bob.client.getMessageHandle(sixth) !== undefined, 5000, 'message 6 at Bob');
    const all = await bob.client.getUserMessagesWithLimit(alice.user.id, 200);
    expect(all.map((m) => m.content)).toEqual([
      'message 1',
      'message 2',
      'message 3',
      'message 4',
      'message 5',
      'message 6',
    ]);
    expect(requests()).toBe(before + 2);

    expect(await bob.client.getUserMessageSummaries()).toEqual([
      { userId: alice.user.id, lastMessageId: all.at(-1)?.id },
    ]);
  });

  it('validates before any request and carries server-side moderation metadata', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const offline = clientFor(emulator);
    await expect(offline.sendUserMessage('1', 'hi')).rejects.toBeInstanceOf(ClientNotReadyError);
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));
    const sends = (): number => emulator.requestCount('POST', HISTORY_ROUTE);
    const before = sends();
    await expect(alice.client.sendUserMessage(bob.user.id, '')).rejects.toBeInstanceOf(ValidationError);
    await expect(alice.client.sendUserMessage(bob.user.id, 'x'.repeat(2001))).rejects.toBeInstanceOf(
      ValidationError,
    );
    const many = Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`k${i}`, 'v']));
    await expect(alice.client.sendUserMessage(bob.user.id, 'hi', many)).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(
      alice.client.sendUserMessage(bob.user.id, 'hi', { big: 'x'.repeat(1100) }),
    ).rejects.toBeInstanceOf(ValidationError);
    await expect(alice.client.sendUserMessage('bob', 'hi')).rejects.toBeInstanceOf(ValidationError);
    await expect(alice.client.getUserMessagesWithLimit(bob.user.id, 201)).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(sends()).toBe(before);

    const id = await alice.client.sendUserMessage(bob.user.id, 'report me');
    await eventually(() => bob.client.getMessageHandle(id) !== undefined, 5000, 'the message');
    const response = await fetch(
      `${emulator.api}/partner-sdk/dms/${bob.user.id}/${alice.user.id}/messages/${id}/moderation-metadata`,
      {
        method: 'PUT',
        headers: { Authorization: `Bot ${emulator.botToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ verdict: 'ok', score: '0.1' }),
      },
    );
    expect(response.status).toBe(204);
    await eventually(
      () => bob.client.getMessageHandle(id)?.moderationMetadata.verdict === 'ok',
      5000,
      'moderation',
    );
    expect(alice.client.getMessageHandle(id)?.moderationMetadata).toEqual({ verdict: 'ok', score: '0.1' });

    // A user blocked by the recipient can't message them.
    await bob.client.blockUser(alice.user.id);
    await expect(alice.client.sendUserMessage(bob.user.id, 'still there?')).rejects.toMatchObject({
      constructor: HttpError,
      code: 50007,
    });
  });
});
