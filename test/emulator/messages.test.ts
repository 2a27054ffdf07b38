import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startEmulator, type Emulator } from '../../src/emulator/index.js';
import { signIn, TestGateway } from './helpers.js';

async function call(
  emu: Emulator,
  auth: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> & unknown[] }> {
  const response = await fetch(`${emu.api}${path}`, {
    method,
    headers: { Authorization: auth, 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    json: (text ? JSON.parse(text) : null) as Record<string, unknown> & unknown[],
  };
}

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
