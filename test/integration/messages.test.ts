import { describe, expect, it } from 'vitest';

import {
  ChannelType,
  ClientNotReadyError,
  ClientStatus,
  HttpError,
  ValidationError,
} from '../../packages/sdkpp/src/index.js';
import { allLogLines, clientFor, emulatorFor, eventually, linkAndConnect, userAt } from './helpers.js';

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
    const aliceSaw: string[] = [];
    // Alice's first message visible on Discord also brings her the disclosure (chatInDiscord.test.ts).
    alice.client.on('messageCreated', (id) => {
      if (alice.client.getMessageHandle(id)?.disclosureType === null) aliceSaw.push(`created:${id}`);
    });
    alice.client.on('messageUpdated', (id) => aliceSaw.push(`updated:${id}`));
    alice.client.on('messageDeleted', (id, channelId) => aliceSaw.push(`deleted:${id}:${channelId}`));

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
    // The sender's other sessions — and the sender — see the same events, in the sender's channel.
    await eventually(() => aliceSaw.length === 3, 5000, 'the events at Alice');
    expect(aliceSaw).toEqual([`created:${id}`, `updated:${id}`, `deleted:${id}:${bob.user.id}`]);
    expect(alice.client.getMessageHandle(id)).toBeUndefined();
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

  it('keeps the held conversation right through edits, deletes and a new session', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));
    const ids: string[] = [];
    for (const text of ['one', 'two', 'three'])
      ids.push(await alice.client.sendUserMessage(bob.user.id, text));
    const requests = (): number => emulator.requestCount('GET', HISTORY_ROUTE);
    const contents = async (): Promise<string[]> =>
      (await bob.client.getUserMessagesWithLimit(alice.user.id, 50)).map((m) => m.content);
    expect(await contents()).toEqual(['one', 'two', 'three']);
    const afterFirst = requests();

    let deleted = false;
    bob.client.on('messageDeleted', () => (deleted = true));
    await alice.client.deleteUserMessage(bob.user.id, ids[1] ?? '');
    await eventually(() => deleted, 5000, 'the delete at Bob');
    await alice.client.editUserMessage(bob.user.id, ids[2] ?? '', 'THREE');
    await eventually(() => bob.client.getMessageHandle(ids[2] ?? '')?.content === 'THREE', 5000, 'the edit');
    // Bob answers his own message too: the conversation is one for both directions.
    await bob.client.sendUserMessage(alice.user.id, 'four');
    expect(await contents()).toEqual(['one', 'THREE', 'four']);
    expect(requests()).toBe(afterFirst);
    // Alice never fetched: her first call asks the server, and sees her own messages in Bob's channel. A call
    // made while that request is under way, for no more messages, waits for it instead of asking again.
    const [aliceView, aliceShort] = await Promise.all([
      alice.client.getUserMessagesWithLimit(bob.user.id, 10),
      alice.client.getUserMessagesWithLimit(bob.user.id, 2),
    ]);
    expect(aliceShort.map((m) => m.content)).toEqual(['THREE', 'four']);
    expect(aliceView.map((m) => [m.content, m.channelId])).toEqual([
      ['one', bob.user.id],
      ['THREE', bob.user.id],
      ['four', bob.user.id],
    ]);
    expect(aliceView[2]?.authorId).toBe(bob.user.id);
    expect(aliceView[0]?.toJSON()).toMatchObject({ id: ids[0], content: 'one', authorId: alice.user.id });
    expect(requests()).toBe(afterFirst + 1);

    // A new session may have missed events: the next call asks again.
    await bob.client.disconnect();
    await expect(bob.client.getUserMessagesWithLimit(alice.user.id, 1)).rejects.toBeInstanceOf(
      ClientNotReadyError,
    );
    await bob.client.connect();
    expect(await contents()).toEqual(['one', 'THREE', 'four']);
    expect(requests()).toBe(afterFirst + 2);
  });

  it('checks every argument before any request, logs why, and surfaces platform refusals', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const alice = await linkAndConnect(emulator, userAt(emulator, 0));
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));
    const id = await alice.client.sendUserMessage(bob.user.id, 'checked');
    const counts = (): number[] => [
      emulator.requestCount('POST', HISTORY_ROUTE),
      emulator.requestCount('PATCH', '/users/:user_id/messages/:message_id'),
      emulator.requestCount('DELETE', '/users/:user_id/messages/:message_id'),
      emulator.requestCount('GET', HISTORY_ROUTE),
    ];
    const before = counts();
    const c = alice.client;
    const invalid = [
      () => c.editUserMessage(bob.user.id, id, ''),
      () => c.editUserMessage(bob.user.id, id, 'x'.repeat(2001)),
      () => c.editUserMessage(bob.user.id, 'not-an-id', 'x'),
      () => c.editUserMessage('', id, 'x'),
      () => c.deleteUserMessage(bob.user.id, '12ab'),
      () => c.deleteUserMessage('-1', id),
      () => c.getUserMessagesWithLimit(bob.user.id, 0),
      () => c.getUserMessagesWithLimit(bob.user.id, 1.5),
      () => c.getUserMessagesWithLimit(bob.user.id, Number.NaN),
      () => c.getUserMessagesWithLimit('x', 5),
      () => c.sendUserMessage(bob.user.id, 'hi', { n: 1 as unknown as string }),
      () => c.sendUserMessage(bob.user.id, 'hi', null as unknown as Record<string, string>),
      () => c.sendUserMessage(bob.user.id, 'x'.repeat(2001)),
    ];
    for (const attempt of invalid) await expect(attempt()).rejects.toBeInstanceOf(ValidationError);
    // Bob can't edit or delete Alice's message: known locally, so refused without a request.
    await eventually(() => bob.client.getMessageHandle(id) !== undefined, 5000, 'the message at Bob');
    await expect(bob.client.deleteUserMessage(alice.user.id, id)).rejects.toBeInstanceOf(ValidationError);
    expect(counts()).toEqual(before);
    expect(allLogLines.some((line) => line.includes('message content must be 1–2000 characters'))).toBe(true);
    // The exact limits pass.
    const exact = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`k${i}`, 'v']));
    await expect(c.sendUserMessage(bob.user.id, 'x'.repeat(2000), exact)).resolves.toMatch(/^[0-9]+$/);
    // What only the platform knows comes back as an HttpError with its code.
    await expect(c.sendUserMessage(alice.user.id, 'me')).rejects.toMatchObject({
      constructor: HttpError,
      code: 50007,
    });
    await expect(c.editUserMessage(bob.user.id, '123', 'gone')).rejects.toMatchObject({
      constructor: HttpError,
      code: 10008,
    });
    await expect(c.sendUserMessage('42', 'nobody')).rejects.toMatchObject({
      constructor: HttpError,
      code: 10013,
    });
  });

  it('shows a sibling application id, and survives malformed events with a log line', async () => {
    const emulator = await emulatorFor({ autoConsent: true });
    const bob = await linkAndConnect(emulator, userAt(emulator, 1));
    const alice = userAt(emulator, 0);
    const events: string[] = [];
    bob.client.on('messageCreated', (id) => events.push(`created:${id}`));
    bob.client.on('messageDeleted', (id) => events.push(`deleted:${id}`));
    for (const bad of [null, 'text', { id: 'x', channel_id: alice.id }, { channel_id: alice.id }, []]) {
      emulator.dispatch(bob.user.id, 'MESSAGE_CREATE', bad);
      emulator.dispatch(bob.user.id, 'MESSAGE_UPDATE', bad);
      emulator.dispatch(bob.user.id, 'MESSAGE_DELETE', bad);
    }
    // A message sent from a sibling application (publisher-level linking) carries that application's id.
    const sibling = '1234567890123456789';
    emulator.dispatch(bob.user.id, 'MESSAGE_CREATE', {
      id: '999000111222333444',
      channel_id: alice.id,
      type: 0,
      content: 'from the sibling game',
      author: { id: alice.id, username: alice.username },
      recipient_id: bob.user.id,
      timestamp: new Date().toISOString(),
      edited_timestamp: null,
      flags: 1 << 16,
      application_id: sibling,
      metadata: {},
      moderation_metadata: {},
    });
    await eventually(() => events.length === 1, 5000, 'the sibling message');
    expect(events).toEqual(['created:999000111222333444']);
    expect(bob.client.getMessageHandle('999000111222333444')).toMatchObject({
      applicationId: sibling,
      sentFromGame: true,
      content: 'from the sibling game',
    });
    expect(allLogLines.some((line) => line.includes('MESSAGE_CREATE without a message id'))).toBe(true);
    expect(allLogLines.some((line) => line.includes('MESSAGE_DELETE without a message id'))).toBe(true);
    expect(bob.client.getStatus()).toBe(ClientStatus.Ready);
  });
});
