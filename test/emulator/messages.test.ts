import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { startEmulator, type Emulator } from '../../packages/emulator/src/index.js';
import { signIn, TestGateway, type Payload } from './helpers.js';
import { call, type Reply } from './lobbyHelpers.js';

describe('direct messages (emulator)', () => {
  let emu: Emulator;
  let alice: string;
  let bob: string;
  let aliceId: string;
  let bobId: string;
  beforeAll(async () => {
    emu = await startEmulator({ autoConsent: true, users: 3 });
    aliceId = emu.users[0]?.id ?? '';
    bobId = emu.users[1]?.id ?? '';
    alice = `Bearer ${(await signIn(emu, 'alice')).access_token}`;
    bob = `Bearer ${(await signIn(emu, 'bob')).access_token}`;
  });
  afterAll(async () => {
    await emu.close();
  });

  it('dispatches MESSAGE_CREATE to both users, each in their own channel', async () => {
    const gwBob = await TestGateway.connect(emu);
    await gwBob.identify(bob);
    const sent = await call(emu, alice, 'POST', `/users/${bobId}/messages`, {
      content: 'hi',
      metadata: { a: 'b' },
    });
    expect(sent.status).toBe(200);
    expect(sent.json).toMatchObject({
      content: 'hi',
      channel_id: bobId,
      channel_type: 18,
      flags: 1 << 16,
      metadata: { a: 'b' },
    });
    const created = (await gwBob.dispatch('MESSAGE_CREATE')).d as Record<string, unknown>;
    expect(created).toMatchObject({
      id: sent.json.id,
      channel_id: aliceId,
      author: { id: aliceId },
      recipient_id: bobId,
    });
    gwBob.ws.close();

    const channel = await call(emu, bob, 'GET', `/users/@me/dms/${aliceId}`);
    expect(channel.json).toMatchObject({ id: aliceId, type: 18, recipients: [{ id: aliceId }] });
    const summaries = await call(emu, bob, 'GET', '/partner-sdk/users/@me/channels');
    expect(summaries.json).toEqual([{ user_id: aliceId, last_message_id: sent.json.id }]);
  });

  it('enforces limits, authorship, scopes and who may edit moderation metadata', async () => {
    expect((await call(emu, alice, 'POST', `/users/${bobId}/messages`, { content: '' })).json).toMatchObject({
      code: 50035,
    });
    expect(
      (await call(emu, alice, 'POST', `/users/${bobId}/messages`, { content: 'x'.repeat(2001) })).status,
    ).toBe(400);
    const tooMany = Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`k${i}`, 'v']));
    expect(
      (await call(emu, alice, 'POST', `/users/${bobId}/messages`, { content: 'a', metadata: tooMany }))
        .status,
    ).toBe(400);
    expect(
      (await call(emu, alice, 'POST', `/users/${bobId}/messages`, { content: 'a', metadata: { n: 1 } }))
        .status,
    ).toBe(400);
    expect(
      (await call(emu, alice, 'POST', `/users/${aliceId}/messages`, { content: 'me' })).json,
    ).toMatchObject({ code: 50007 });
    expect((await call(emu, alice, 'POST', '/users/999/messages', { content: 'who' })).json).toMatchObject({
      code: 10013,
    });
    expect(
      (await call(emu, 'Bearer nope', 'POST', `/users/${bobId}/messages`, { content: 'a' })).status,
    ).toBe(401);
    const narrow = `Bearer ${(await signIn(emu, 'alice', 'identify gateway.connect')).access_token}`;
    expect((await call(emu, narrow, 'POST', `/users/${bobId}/messages`, { content: 'a' })).status).toBe(403);
    expect((await call(emu, narrow, 'GET', `/users/${bobId}/messages`)).status).toBe(403);
    // Carol never authorized the application: there is no game conversation history with her.
    const carolHistory = await call(emu, alice, 'GET', `/users/${emu.users[2]?.id ?? ''}/messages`);
    expect(carolHistory.status).toBe(403);
    expect(carolHistory.json).toMatchObject({ code: 50001 });
    // Carol never authorized the application and is nobody's friend: she can't be messaged.
    const carolId = emu.users[2]?.id ?? '';
    expect(
      (await call(emu, alice, 'POST', `/users/${carolId}/messages`, { content: 'a' })).json,
    ).toMatchObject({ code: 50007 });

    const sent = await call(emu, alice, 'POST', `/users/${bobId}/messages`, { content: 'mine' });
    const id = String(sent.json.id);
    expect((await call(emu, bob, 'PATCH', `/users/${aliceId}/messages/${id}`, { content: 'x' })).status).toBe(
      403,
    );
    expect((await call(emu, bob, 'DELETE', `/users/${aliceId}/messages/${id}`)).status).toBe(403);
    expect(
      (await call(emu, alice, 'PATCH', `/users/${bobId}/messages/${id}`, { content: 'edited' })).json,
    ).toMatchObject({
      content: 'edited',
    });
    const moderation = `/partner-sdk/dms/${aliceId}/${bobId}/messages/${id}/moderation-metadata`;
    expect((await call(emu, alice, 'PUT', moderation, { flag: 'x' })).status).toBe(401);
    const bot = `Bot ${emu.botToken}`;
    expect(
      (await call(emu, bot, 'PUT', moderation, { a: '1', b: '2', c: '3', d: '4', e: '5', f: '6' })).status,
    ).toBe(400);
    expect((await call(emu, bot, 'PUT', moderation, { flag: 'reviewed' })).status).toBe(204);
    expect(
      (
        await call(
          emu,
          bot,
          'PUT',
          `/partner-sdk/dms/${aliceId}/${carolId}/messages/${id}/moderation-metadata`,
          {},
        )
      ).status,
    ).toBe(404);
    const history = await call(emu, bob, 'GET', `/users/${aliceId}/messages?limit=1`);
    expect(history.json).toEqual([
      expect.objectContaining({ id, content: 'edited', moderation_metadata: { flag: 'reviewed' } }),
    ]);
    expect((await call(emu, bob, 'GET', `/users/${aliceId}/messages?limit=201`)).status).toBe(400);
    expect((await call(emu, bob, 'GET', `/users/${aliceId}/messages?limit=abc`)).status).toBe(400);
    expect((await call(emu, alice, 'DELETE', `/users/${bobId}/messages/${id}`)).status).toBe(204);
    expect((await call(emu, alice, 'DELETE', `/users/${bobId}/messages/${id}`)).status).toBe(404);
  });
});

describe('direct messages (emulator): events, history window and hostile input', () => {
  let emu: Emulator;
  let alice: string;
  let bob: string;
  let aliceId: string;
  let bobId: string;
  const lines: string[] = [];
  beforeAll(async () => {
    emu = await startEmulator({ autoConsent: true, users: 3, log: (line) => lines.push(line) });
    aliceId = emu.users[0]?.id ?? '';
    bobId = emu.users[1]?.id ?? '';
    alice = `Bearer ${(await signIn(emu, 'alice')).access_token}`;
    bob = `Bearer ${(await signIn(emu, 'bob')).access_token}`;
  });
  afterAll(async () => {
    await emu.close();
  });

  it('tells every session of both users about creates, edits, moderation and deletes', async () => {
    const sessions = await Promise.all(
      [alice, alice, bob].map(async (token) => {
        const gw = await TestGateway.connect(emu);
        await gw.identify(token);
        return gw;
      }),
    );
    const [alice1, alice2, bob1] = sessions as [TestGateway, TestGateway, TestGateway];
    const data = (p: Payload): Record<string, unknown> => p.d as Record<string, unknown>;

    const sent = await call(emu, alice, 'POST', `/users/${bobId}/messages`, { content: 'to every session' });
    const id = String(sent.json.id);
    for (const [gw, channel] of [
      [alice1, bobId],
      [alice2, bobId],
      [bob1, aliceId],
    ] as const) {
      expect(data(await gw.dispatch('MESSAGE_CREATE'))).toMatchObject({
        id,
        channel_id: channel,
        type: 0,
        content: 'to every session',
        author: { id: aliceId },
        edited_timestamp: null,
        flags: 1 << 16,
        application_id: emu.applicationId,
      });
    }

    await call(emu, alice, 'PATCH', `/users/${bobId}/messages/${id}`, { content: 'edited' });
    for (const gw of sessions) {
      const update = data(await gw.dispatch('MESSAGE_UPDATE'));
      expect(update).toMatchObject({ id, content: 'edited' });
      expect(Date.parse(String(update.edited_timestamp))).toBeGreaterThan(0);
    }

    // The user order of the moderation route does not matter.
    const moderation = `/partner-sdk/dms/${bobId}/${aliceId}/messages/${id}/moderation-metadata`;
    expect((await call(emu, `Bot ${emu.botToken}`, 'PUT', moderation, { verdict: 'clean' })).status).toBe(
      204,
    );
    for (const gw of sessions) {
      expect(data(await gw.dispatch('MESSAGE_UPDATE'))).toMatchObject({
        id,
        moderation_metadata: { verdict: 'clean' },
      });
    }

    expect((await call(emu, alice, 'DELETE', `/users/${bobId}/messages/${id}`)).status).toBe(204);
    expect(data(await alice1.dispatch('MESSAGE_DELETE'))).toEqual({ id, channel_id: bobId });
    expect(data(await alice2.dispatch('MESSAGE_DELETE'))).toEqual({ id, channel_id: bobId });
    expect(data(await bob1.dispatch('MESSAGE_DELETE'))).toEqual({ id, channel_id: aliceId });
    for (const gw of sessions) gw.ws.close();
  });

  it('returns history newest first: at most 200 messages, only of the last 72 hours', async () => {
    // One message from 73 hours ago (only Date is faked; sockets and timers stay real).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 73 * 60 * 60_000 });
    try {
      await call(emu, bob, 'POST', `/users/${aliceId}/messages`, { content: 'long ago' });
    } finally {
      vi.useRealTimers();
    }
    const old = await call(emu, bob, 'GET', `/users/${aliceId}/messages?limit=200`);
    expect(old.json.map((m) => (m as { content: string }).content)).not.toContain('long ago');

    for (let i = 1; i <= 201; i += 1) {
      const sent = await call(
        emu,
        i % 2 === 0 ? alice : bob,
        'POST',
        `/users/${i % 2 === 0 ? bobId : aliceId}/messages`,
        {
          content: `n${i}`,
        },
      );
      expect(sent.status).toBe(200);
    }
    const all = await call(emu, bob, 'GET', `/users/${aliceId}/messages?limit=200`);
    const contents = all.json.map((m) => (m as { content: string }).content);
    expect(contents).toHaveLength(200);
    expect(contents[0]).toBe('n201');
    expect(contents.at(-1)).toBe('n2');
    const byDefault = await call(emu, alice, 'GET', `/users/${bobId}/messages`);
    expect(byDefault.json).toHaveLength(50);
    // Each viewer sees the conversation in their own channel.
    expect(byDefault.json.every((m) => (m as { channel_id: string }).channel_id === bobId)).toBe(true);
    const two = await call(emu, alice, 'GET', `/users/${bobId}/messages?limit=2`);
    expect(two.json.map((m) => (m as { content: string }).content)).toEqual(['n201', 'n200']);
    for (const bad of ['0', '-1', '1.5', '', '1e2']) {
      const reply = await call(emu, alice, 'GET', `/users/${bobId}/messages?limit=${bad}`);
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({ code: 50035, errors: { limit: expect.anything() as unknown } });
    }
  });

  it('answers hostile or out-of-bounds input with the platform error shape', async () => {
    const post = (body: unknown, auth = alice): Promise<Reply> =>
      call(emu, auth, 'POST', `/users/${bobId}/messages`, body);
    // Content: 1–2000 characters, a string.
    expect((await post({ content: 'x'.repeat(2000) })).status).toBe(200);
    const long = await post({ content: 'x'.repeat(2001) });
    expect(long.json).toMatchObject({ code: 50035, errors: { content: expect.anything() as unknown } });
    expect((await post({ content: 5 })).json).toMatchObject({ code: 50035 });
    expect((await post({})).json).toMatchObject({ code: 50035 });
    expect((await post(['content'])).json).toMatchObject({ code: 50035 });
    const raw = await fetch(`${emu.api}/users/${bobId}/messages`, {
      method: 'POST',
      headers: { Authorization: alice, 'Content-Type': 'application/json' },
      body: '{"content": ',
    });
    expect(raw.status).toBe(400);
    // Metadata: ≤25 keys, ≤1024 characters of keys and values, string values.
    const exactly = Object.fromEntries(
      Array.from({ length: 25 }, (_, i) => [`k${String(i).padStart(2, '0')}`, 'v']),
    );
    expect((await post({ content: 'a', metadata: exactly })).status).toBe(200);
    expect((await post({ content: 'a', metadata: { k: 'x'.repeat(1023) } })).status).toBe(200);
    const tooBig = await post({ content: 'a', metadata: { k: 'x'.repeat(1024) } });
    expect(tooBig.json).toMatchObject({ code: 50035, errors: { metadata: expect.anything() as unknown } });
    expect((await post({ content: 'a', metadata: 'text' })).status).toBe(400);
    expect((await post({ content: 'a', metadata: ['a'] })).status).toBe(400);

    // Auth: no token, the bot token, a token without the messaging scopes.
    expect((await call(emu, '', 'POST', `/users/${bobId}/messages`, { content: 'a' })).json).toMatchObject({
      code: 0,
    });
    expect((await post({ content: 'a' }, `Bot ${emu.botToken}`)).status).toBe(401);
    const sent = await post({ content: 'scoped' });
    const id = String(sent.json.id);
    const narrow = `Bearer ${(await signIn(emu, 'alice', 'identify gateway.connect')).access_token}`;
    for (const [method, path] of [
      ['PATCH', `/users/${bobId}/messages/${id}`],
      ['DELETE', `/users/${bobId}/messages/${id}`],
      ['GET', '/partner-sdk/users/@me/channels'],
      ['GET', `/users/@me/dms/${bobId}`],
    ] as const) {
      const reply = await call(emu, narrow, method, path, method === 'PATCH' ? { content: 'x' } : undefined);
      expect(reply.status).toBe(403);
      expect(reply.json).toMatchObject({ code: 50001, message: expect.stringContaining('scope') as unknown });
    }

    // Unknown or foreign messages and users.
    expect(
      (await call(emu, alice, 'PATCH', `/users/${bobId}/messages/123`, { content: 'x' })).json,
    ).toMatchObject({
      code: 10008,
    });
    const carolId = emu.users[2]?.id ?? '';
    expect((await call(emu, alice, 'DELETE', `/users/${carolId}/messages/${id}`)).status).toBe(404);
    expect((await call(emu, alice, 'GET', '/users/@me/dms/42')).json).toMatchObject({ code: 10013 });
    expect((await call(emu, alice, 'GET', '/users/42/messages')).json).toMatchObject({ code: 10013 });
    expect((await call(emu, alice, 'PATCH', `/users/${bobId}/messages/${id}`, { content: '' })).status).toBe(
      400,
    );

    // Moderation metadata: the bot only; ≤5 keys and ≤2000 characters; string values.
    const moderation = `/partner-sdk/dms/${aliceId}/${bobId}/messages/${id}/moderation-metadata`;
    expect((await call(emu, '', 'PUT', moderation, { a: 'b' })).status).toBe(401);
    expect((await call(emu, bob, 'PUT', moderation, { a: 'b' })).status).toBe(401);
    const bot = `Bot ${emu.botToken}`;
    expect((await call(emu, bot, 'PUT', moderation, { k: 'x'.repeat(1999) })).status).toBe(204);
    expect((await call(emu, bot, 'PUT', moderation, { k: 'x'.repeat(2000) })).json).toMatchObject({
      code: 50035,
    });
    expect((await call(emu, bot, 'PUT', moderation, { k: 1 })).status).toBe(400);
    expect((await call(emu, bot, 'PUT', moderation, 'text')).status).toBe(400);
    expect(
      (await call(emu, bot, 'PUT', `/partner-sdk/dms/${aliceId}/${bobId}/messages/1/moderation-metadata`, {}))
        .json,
    ).toMatchObject({ code: 10008 });

    // A block either way closes the conversation.
    expect((await call(emu, bob, 'PUT', `/users/@me/relationships/${aliceId}`, { type: 2 })).status).toBe(
      204,
    );
    expect((await post({ content: 'blocked?' })).json).toMatchObject({
      code: 50007,
      message: 'Cannot send messages to this user',
    });
    expect(
      (await call(emu, bob, 'POST', `/users/${aliceId}/messages`, { content: 'me?' })).json,
    ).toMatchObject({
      code: 50007,
    });

    // Every failure was logged, and no token or message text reached the log.
    expect(lines.some((line) => line.includes(' 400'))).toBe(true);
    const secrets = [alice, bob, narrow, emu.botToken].map((t) => t.replace(/^(Bearer|Bot) /, ''));
    for (const line of lines) {
      for (const secret of secrets) expect(line).not.toContain(secret);
      expect(line).not.toContain('scoped');
    }
  });
});
